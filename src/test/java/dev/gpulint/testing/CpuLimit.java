package dev.gpulint.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Fails a test that spends more than {@link #seconds} of CPU (all of the test JVM's threads, GC and JIT
 * included), instead of a wall-clock {@code @Timeout}: on a loaded two-core CI runner a test needing 8 s
 * of CPU can take 200 s of wall time, so a wall-clock limit near the need fails honest work, while a
 * super-linear or looping version still blows any CPU limit. A hang that burns no CPU (a blocked read) is
 * caught by {@link CpuBudget#BACKSTOP}, a wall-clock limit far from any test's need. Set {@link #seconds}
 * to several times what the test needs on an idle machine; bench/ measures the real times.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(CpuLimitExtension.class)
public @interface CpuLimit {
    /** CPU seconds the test may spend. */
    long seconds();
}
