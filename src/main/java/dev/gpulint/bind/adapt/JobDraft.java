package dev.gpulint.bind.adapt;

import dev.gpulint.model.Located;
import dev.gpulint.model.Specs;
import dev.gpulint.model.Specs.Stated;
import dev.gpulint.model.Specs.StatedKind;
import dev.gpulint.tree.Span;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A job being bound from another format: the adapters fill in what their format states, with
 * the span of each value in the original file, and {@link #build()} makes the same
 * {@link Specs.Job} a native manifest would, with its {@link Specs.Origin}.
 */
final class JobDraft {
    final String format;
    final String file;
    Located<String> name;
    Located<String> cluster, nodeGroup;
    Located<Long> nodes, gpusPerNode;
    Located<Double> parameters;
    Located<Long> tp, pp, cp, ep, dp, vpp, layers, heads, kvHeads, experts, seqLength, hidden, micro, global, zeroStage;
    Located<Boolean> sequenceParallel;
    final Map<String, Located<String>> env = new LinkedHashMap<>();
    final List<Stated> stated = new ArrayList<>();
    final List<Located<String>> rdma = new ArrayList<>();
    final List<Located<String>> forwarded = new ArrayList<>();
    boolean podsVisible, rdmaByAccess;
    Located<String> gpuModel;
    String gpuModelSource;
    Specs.DeepSpeedBatch deepspeed;
    Span span;

    JobDraft(String format, String file, Span span) {
        this.format = format;
        this.file = file;
        this.span = span;
    }

    void state(String quantity, long value, String where, StatedKind kind, Span at) {
        if (value >= 0) stated.add(new Stated(quantity, String.valueOf(value), where, kind, at));
    }

    void state(String quantity, Located<Long> v, String where, StatedKind kind) {
        if (v != null) state(quantity, v.value(), where, kind, v.span());
    }

    /** An environment variable: the first statement binds it; every statement is kept for the cross-checks. */
    void env(String name, String value, Span at, String where) {
        env.putIfAbsent(name, new Located<>(value, at));
        stated.add(new Stated("env:" + name, value, where, StatedKind.CONFIG, at));
    }

    Specs.Job build() {
        Specs.Model model = parameters == null && layers == null && heads == null && kvHeads == null && experts == null
                && seqLength == null && hidden == null ? null
                : new Specs.Model(parameters, null, layers, heads, kvHeads, hidden, seqLength, experts);
        Span key = first(tp, pp, cp, dp, ep);
        Specs.Parallelism par = key == null && sequenceParallel == null && vpp == null ? null
                : new Specs.Parallelism(tp, pp, dp, cp, ep, null, sequenceParallel, vpp, key != null ? key : span);
        Specs.Batch batch = micro == null && global == null ? null : new Specs.Batch(micro, global, null);
        Specs.Optimizer opt = zeroStage == null ? null : new Specs.Optimizer(null, zeroStage, null);
        Specs.Origin origin = new Specs.Origin(format, stated, rdma, podsVisible, rdmaByAccess, gpuModel, gpuModelSource,
                forwarded, deepspeed);
        return new Specs.Job(name, file, cluster, nodeGroup, nodes, gpusPerNode, model, par, batch, opt, null, null,
                env, span, origin);
    }

    @SafeVarargs
    private static Span first(Located<Long>... values) {
        for (Located<Long> v : values) if (v != null) return v.span();
        return null;
    }
}
