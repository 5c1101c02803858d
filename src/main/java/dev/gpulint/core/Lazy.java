package dev.gpulint.core;

import java.util.function.Supplier;

/**
 * A value loaded once, on first use, by whichever thread asks first (the built-in hardware catalog, DCGM
 * fields, NCCL variables, the compiled rules): a run that never needs it never pays for it.
 */
public final class Lazy<T> implements Supplier<T> {
    private final Supplier<T> load;
    private volatile T value;

    public Lazy(Supplier<T> load) { this.load = load; }

    @Override public T get() {
        T v = value;
        if (v == null) {
            synchronized (this) {
                if (value == null) value = load.get();
                v = value;
            }
        }
        return v;
    }
}
