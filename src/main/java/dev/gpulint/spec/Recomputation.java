package dev.gpulint.spec;

import java.util.Collection;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * A job's activation recomputation as its file states it (docs/format.md, {@code recompute}): the granularity word, and
 * what qualifies it, each typed once by the reader that reads it (derive/estimate/JobInputs and RecomputeModules read them
 * without parsing a string back).
 *
 * @param granularity   the granularity as written, with its span: none, selective, full, op or every in a native manifest;
 *                      an adapter's word as its format writes it, lower-cased (Megatron {@code --recompute-granularity},
 *                      NeMo {@code activations_checkpoint_granularity}, FSDP activation checkpointing as "full" or "none"),
 *                      which the plan quotes when it does not know it
 * @param modules       selective recompute's modules (Megatron-Core's {@code recompute_modules}, the native
 *                      {@code recompute_modules}); null when none are named (Megatron's default [core_attn]), empty when an
 *                      empty list is written. Only beside {@code selective}: Megatron applies them to nothing else
 * @param every         for {@code every}: one layer in n fully recomputed (torchtitan's {@code selective_ac_option} n, the
 *                      native {@code recompute_every}); 0 for any other granularity
 * @param formatDefault nothing is written: the format's own default is taken (torchtitan's ActivationCheckpoint, mode
 *                      "selective" with selective_ac_option "2"), which the plan's assumptions say
 */
public record Recomputation(Located<String> granularity, Set<RecomputeModule> modules, int every, boolean formatDefault) {

    public Recomputation {
        if (modules != null) modules = modules.isEmpty() ? Set.of() : Collections.unmodifiableSet(EnumSet.copyOf(modules));
    }

    /** The granularity {@code word} as written, nothing more named. */
    public static Recomputation of(Located<String> word) {
        return new Recomputation(word, null, 0, false);
    }

    /** Selective recompute (the word as written, at its span) of the {@code modules} named. */
    public static Recomputation selective(Located<String> word, Collection<RecomputeModule> modules) {
        return new Recomputation(word, modules == null ? null : modules.isEmpty() ? Set.of() : EnumSet.copyOf(modules), 0, false);
    }

    /** One layer in {@code n} fully recomputed, stated at {@code at}. */
    public static Recomputation every(int n, dev.gpulint.core.Span at) {
        return new Recomputation(new Located<>("every", at), null, n, false);
    }

    /** The same recomputation, taken as the format's default rather than written. */
    public Recomputation asFormatDefault() {
        return new Recomputation(granularity, modules, every, true);
    }
}
