package dev.gpulint.testing;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A limit on the CPU time work may spend, for tests that guard against super-linear or looping work.
 * It counts the CPU time of the whole JVM (every thread, so parallel reading and the rule engine's
 * threads count; GC and JIT too) from the start, and never the wall-clock time the work waited for a
 * core: a loaded CI machine stretches wall time many times over, not CPU time. Work that burns no CPU
 * while it hangs (a blocked read) is stopped by {@link #BACKSTOP}, a wall-clock limit far above any
 * test's need, whose only job is to end a hung build.
 */
public final class CpuBudget {
    /** The wall-clock hang guard: 15 minutes, two orders of magnitude above any budgeted test's CPU need. */
    public static final Duration BACKSTOP = Duration.ofMinutes(15);

    private final long cpuNanos;
    private final long startCpu;
    private final long startWall;

    private CpuBudget(long cpuNanos) {
        this.cpuNanos = cpuNanos;
        this.startCpu = processCpuNanos();
        this.startWall = System.nanoTime();
    }

    /** A budget of {@code seconds} of CPU, counted from now. */
    public static CpuBudget ofSeconds(long seconds) {
        return new CpuBudget(Duration.ofSeconds(seconds).toNanos());
    }

    /** The CPU time of this JVM so far (all threads), in nanoseconds. */
    public static long processCpuNanos() {
        var os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
            long t = sun.getProcessCpuTime();
            if (t >= 0) return t;
        }
        // no process clock: the calling thread's own CPU time, a lower bound
        return ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
    }

    /** CPU nanoseconds spent since this budget started. */
    public long spentNanos() {
        return processCpuNanos() - startCpu;
    }

    /** True once the CPU budget is spent, or the wall-clock backstop has passed. */
    public boolean exhausted() {
        return spentNanos() > cpuNanos || System.nanoTime() - startWall > BACKSTOP.toNanos();
    }

    /** Why {@link #exhausted()} is true, for a failure message. */
    public String why() {
        long spent = spentNanos();
        if (spent > cpuNanos) {
            return String.format("spent %.1f s of CPU, more than its budget of %d s", spent / 1e9, cpuNanos / 1_000_000_000L);
        }
        return "burnt only " + String.format("%.1f s of CPU", spent / 1e9) + " but did not finish within the " + BACKSTOP.toMinutes()
                + "-minute hang guard (blocked?)";
    }

    /** Work that returns nothing. */
    @FunctionalInterface
    public interface Work {
        void run() throws Exception;
    }

    /** As {@link #run(Callable)}, for work that returns nothing. */
    public void run(Work work) {
        run(() -> {
            work.run();
            return null;
        });
    }

    /**
     * Runs {@code work} on its own thread and returns its result; fails (interrupting the work) once it has spent
     * the budget. The work's own exceptions and assertion errors are thrown as they are.
     */
    public <T> T run(Callable<T> work) {
        AtomicReference<T> result = new AtomicReference<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                result.set(work.call());
            } catch (Throwable e) {
                failure.set(e);
            }
        }, "cpu-budgeted-work");
        t.setDaemon(true);
        t.start();
        try {
            while (t.isAlive()) {
                t.join(100);
                if (t.isAlive() && exhausted()) {
                    String why = why();
                    t.interrupt();
                    throw new AssertionError("the work " + why);
                }
            }
        } catch (InterruptedException e) {
            t.interrupt();
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting for the work", e);
        }
        Throwable e = failure.get();
        if (e != null) throw rethrown(e);
        return result.get();
    }

    /** The value of {@code f} once it is done; fails once the budget is spent first. */
    public <T> T get(java.util.concurrent.Future<T> f) throws Exception {
        while (true) {
            try {
                return f.get(100, java.util.concurrent.TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                if (exhausted()) throw new AssertionError("the awaited result never came: the wait " + why());
            }
        }
    }

    /** Returns once {@code done} is true; fails, saying {@code what} was awaited, once the budget is spent first. */
    public void until(java.util.function.BooleanSupplier done, String what) throws InterruptedException {
        while (!done.getAsBoolean()) {
            if (exhausted()) throw new AssertionError(what + " never happened: the wait " + why());
            Thread.sleep(20);
        }
    }

    /** As {@link #until} for a latch. */
    public void await(java.util.concurrent.CountDownLatch latch, String what) throws InterruptedException {
        while (!latch.await(100, java.util.concurrent.TimeUnit.MILLISECONDS)) {
            if (exhausted()) throw new AssertionError(what + " never happened: the wait " + why());
        }
    }

    /**
     * Waits for a child process to exit; fails once the child has spent {@code cpuSeconds} of CPU (its own
     * clock, not this JVM's), or after {@link #BACKSTOP}.
     */
    public static void waitFor(Process p, long cpuSeconds) throws InterruptedException {
        long start = System.nanoTime();
        while (!p.waitFor(100, java.util.concurrent.TimeUnit.MILLISECONDS)) {
            Duration cpu = p.info().totalCpuDuration().orElse(Duration.ZERO);
            boolean wall = System.nanoTime() - start > BACKSTOP.toNanos();
            if (cpu.getSeconds() > cpuSeconds || wall) {
                p.destroyForcibly();
                throw new AssertionError("the process " + (wall ? "did not exit within the " + BACKSTOP.toMinutes()
                        + "-minute hang guard" : "spent " + cpu.getSeconds() + " s of CPU, more than its budget of " + cpuSeconds + " s"));
            }
        }
    }

    /** Throws {@code e} as it is, checked or not (so a test's IOException stays one); declared to return for {@code throw}. */
    @SuppressWarnings("unchecked")
    static <E extends Throwable> RuntimeException rethrown(Throwable e) throws E {
        throw (E) e;
    }
}
