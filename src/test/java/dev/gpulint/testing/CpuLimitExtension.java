package dev.gpulint.testing;

import java.lang.reflect.Method;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;

/** Runs a {@link CpuLimit} test under its {@link CpuBudget}. */
public final class CpuLimitExtension implements InvocationInterceptor {
    @Override
    public void interceptTestMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> call, ExtensionContext context)
            throws Throwable {
        CpuLimit limit = call.getExecutable().getAnnotation(CpuLimit.class);
        CpuBudget.ofSeconds(limit.seconds()).run(() -> {
            try {
                invocation.proceed();
            } catch (Throwable t) {
                throw CpuBudget.rethrown(t);
            }
            return null;
        });
    }
}
