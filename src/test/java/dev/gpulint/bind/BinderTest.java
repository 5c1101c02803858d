package dev.gpulint.bind;

import dev.gpulint.spec.ParallelDim;
import dev.gpulint.spec.Model;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.core.Finding;
import dev.gpulint.testing.CpuLimit;
import dev.gpulint.read.SourceFile;
import dev.gpulint.read.yaml.YamlReader;
import dev.gpulint.spec.Specs;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The native binder's validation: each mistake's rule, place, message, and that the value binds as absent. */
class BinderTest {

    private static Model bind(String yaml) {
        return new Binder().bind(new YamlReader().read(SourceFile.of("t.yaml", yaml)).documents());
    }

    /** "SYN002 t.yaml:3:1 [identity] message". */
    private static List<String> findings(String yaml) {
        return bind(yaml).findings().stream().map(BinderTest::line).toList();
    }

    private static String line(Finding f) {
        return f.ruleId() + " " + f.span() + " [" + f.identity() + "] " + f.message();
    }

    private static final String JOB = "kind: training_job\nname: j\n";

    @Test
    void anUnknownFieldSuggestsTheClosestName() {
        assertEquals(List.of("SYN002 t.yaml:3:1 [training_job:j/nodez] unknown field 'nodez' in training_job 'j'; did you mean 'nodes'?"),
                findings(JOB + "nodez: 2\n"));
        assertEquals(List.of("SYN002 t.yaml:3:16 [training_job:j/parallelism/tq] unknown field 'tq' in 'parallelism' of training_job 'j'; did you mean 'tp'?"),
                findings(JOB + "parallelism: { tq: 2 }\n"));
    }

    @Test
    void anUnknownFieldWithoutALikelyNameListsTheValidOnes() {
        assertEquals(List.of("SYN002 t.yaml:3:10 [training_job:j/batch/xyzzyplugh] unknown field 'xyzzyplugh' in 'batch' of training_job 'j'; "
                        + "valid fields: micro_batch_size, global_batch_size, micro_batches."),
                findings(JOB + "batch: { xyzzyplugh: 1 }\n"));
    }

    @Test
    void aListItemIsNamedByItsName() {
        assertEquals(List.of("SYN002 t.yaml:4:43 [cluster:c/node_groups[g]/gpu/modle] unknown field 'modle' in 'gpu' of node_group 'g' of cluster 'c'; did you mean 'model'?"),
                findings("kind: cluster\nname: c\nnode_groups:\n  - { name: g, count: 1, gpu: { count: 8, modle: H100, model: H100 } }\n"));
    }

    @Test
    void aWrongTypeSaysWhatWasExpectedAndBindsAsAbsent() {
        Model b = bind(JOB + "nodes: two\nparallelism: 4\ngpus_per_node: [1, 2]\nstep_time: { s: 1 }\n");
        assertEquals(List.of(
                        "SYN002 t.yaml:3:8 [training_job:j/nodes] 'nodes' must be an integer, found 'two'.",
                        "SYN002 t.yaml:4:14 [training_job:j/parallelism] 'parallelism' must be a mapping, found '4'.",
                        "SYN002 t.yaml:5:16 [training_job:j/gpus_per_node] 'gpus_per_node' must be an integer, found a list.",
                        "SYN002 t.yaml:6:12 [training_job:j/step_time] 'step_time' must be a duration such as 2.5 s, found a mapping."),
                b.findings().stream().map(BinderTest::line).toList());
        Specs.Job j = b.jobs().get(0);
        assertNull(j.nodes());
        assertNull(j.parallelism());
        assertNull(j.gpusPerNode());
        assertNull(j.stepTime());
        assertEquals("j", j.name().value());
    }

    @Test
    void aMissingRequiredFieldIsReportedAtTheFirstKeyOfItsOwner() {
        assertEquals(List.of("SYN002 t.yaml:4:7 [cluster:c/node_groups[g]/gpu#missing] node_group 'g' of cluster 'c' is missing required field 'gpu'."),
                findings("kind: cluster\nname: c\nnode_groups:\n  - { name: g, count: 1 }\n"));
        assertEquals(List.of("SYN002 t.yaml:1:1 [training_job:#0/name#missing] training_job '#0' is missing required field 'name'."),
                findings("kind: training_job\nnodes: 1\n"));
        assertEquals(List.of("SYN002 t.yaml:2:6 [training_job:/name#missing] training_job '' is missing required field 'name'."),
                findings("kind: training_job\nname:\n"), "an empty required value is missing, at the value");
    }

    @Test
    void aNumberOutOfRangeNamesTheSchemasBound() {
        assertEquals(List.of(
                        "SYN002 t.yaml:3:8 [training_job:j/nodes] 'nodes' is 0; expected a whole number from 1 to 2147483647.",
                        "SYN002 t.yaml:4:26 [training_job:j/optimizer/zero_stage] 'zero_stage' is 4; expected a whole number from 0 to 3."),
                findings(JOB + "nodes: 0\noptimizer: { zero_stage: 4 }\n"));
        assertEquals("'zero_stage' is 4; expected a whole number from 0 to 3",
                Schema.field(Schema.JOB, "optimizer", "zero_stage").outOfRange("zero_stage", 4));
        assertEquals("'priority' is 8; expected a whole number from 0 to 7",
                Schema.field(Schema.CLUSTER, "fabric", "roce", "pfc", "priority").outOfRange("priority", 8));
        assertNull(Schema.field(Schema.JOB, "nodes").outOfRange("nodes", 1));
    }

    @Test
    void aDuplicateKeyPointsBackAtTheFirst() {
        Model b = bind(JOB + "nodes: 2\nnodes: 4\n");
        assertEquals(List.of("SYN002 t.yaml:4:1 [training_job:j/nodes#dup] 'nodes' appears twice in training_job 'j' (first at line 3); remove one of them."),
                b.findings().stream().map(BinderTest::line).toList());
        Finding f = b.findings().get(0);
        assertEquals(1, f.related().size());
        assertEquals("t.yaml:3:1", f.related().get(0).span().toString());
        assertEquals("first 'nodes' here", f.related().get(0).message());
        assertEquals(2, b.jobs().get(0).nodes().value(), "the first is bound");
    }

    @Test
    void placeholdersBindAsAbsentWithoutAFinding() {
        Model b = bind(JOB + "cluster: ${CLUSTER}\nnodes: \"{{ nodes }}\"\ngpus_per_node: auto\n"
                + "parallelism: { tp: \"${TP}\", pp: $PP, dp: \"???\" }\nmodel: { parameters: AUTO }\n");
        assertEquals(List.of(), b.findings());
        Specs.Job j = b.jobs().get(0);
        assertNull(j.cluster(), "a placeholder cluster is absent too: the job is not placed, and no SYN003");
        assertNull(j.nodes());
        assertNull(j.gpusPerNode());
        assertNull(j.parallelism().tp());
        assertNull(j.parallelism().pp());
        assertNull(j.parallelism().dp());
        assertNull(j.model().parameters());
        assertTrue(Binder.placeholder(" ${X} "));
        assertTrue(Binder.placeholder("$X_1"));
        assertTrue(Binder.placeholder("{{ .Values.tp }}"));
        assertTrue(Binder.placeholder("???"));
        assertTrue(Binder.placeholder("Auto"));
        assertFalse(Binder.placeholder("$1"));
        assertFalse(Binder.placeholder("8"));
        assertFalse(Binder.placeholder("automatic"));
    }

    @Test
    void theOptimizersOffloadedShareIsFromZeroToOne() {
        // Megatron's --optimizer-offload-fraction is a share: 0 (nothing offloaded) and 1 are valid, 1.5 and -0.5 are not
        assertEquals(List.of(
                        "SYN002 t.yaml:3:48 [training_job:j/offload/optimizer_fraction] 'optimizer_fraction' must be a number from 0 to 1, found '1.5'."),
                findings(JOB + "offload: { optimizer: cpu, optimizer_fraction: 1.5 }\n"));
        assertEquals(List.of(
                        "SYN002 t.yaml:3:48 [training_job:j/offload/optimizer_fraction] 'optimizer_fraction' must be a number from 0 to 1, found '-0.5'."),
                findings(JOB + "offload: { optimizer: cpu, optimizer_fraction: -0.5 }\n"));
        assertEquals(List.of(), findings(JOB + "offload: { optimizer: cpu, optimizer_fraction: 0 }\n"));
        assertEquals(0.0, bind(JOB + "offload: { optimizer: cpu, optimizer_fraction: 0 }\n").jobs().get(0).offload().optimizerFraction().value());
        assertEquals(0.25, bind(JOB + "offload: { optimizer: cpu, optimizer_fraction: 0.25 }\n").jobs().get(0).offload().optimizerFraction().value());
    }

    @Test
    void unitsAndEnumsAndOrders() {
        assertEquals(List.of(
                        "UNIT003 t.yaml:4:61 [cluster:c/node_groups[g]/gpu/memory] size '80' has no unit: write e.g. 80 GB or 80 GiB.",
                        "SYN002 t.yaml:5:17 [cluster:c/fabric/type] 'type' is 'infiniban'; expected one of infiniband, roce, ethernet (did you mean 'infiniband'?)."),
                findings("kind: cluster\nname: c\nnode_groups:\n  - { name: g, count: 1, gpu: { model: X, count: 8, memory: 80 } }\n"
                        + "fabric: { type: infiniban }\n"));
        assertEquals(List.of(
                        "SYN002 t.yaml:3:23 [training_job:j/parallelism/order] rank order 'tp-dq' has 'dq'; the dimensions are tp, cp, ep, dp, pp (did you mean 'dp'?).",
                        "SYN002 t.yaml:3:49 [training_job:j/parallelism/sequence_parallel] 'sequence_parallel' must be true or false, found 'yes please'."),
                findings(JOB + "parallelism: { order: tp-dq, sequence_parallel: yes please }\n"));
        assertEquals(List.of(ParallelDim.TP, ParallelDim.DP, ParallelDim.CP, ParallelDim.EP, ParallelDim.PP),
                bind(JOB + "parallelism: { order: TP-dp }\n").jobs().get(0).parallelism().order().value(), "completed in schema order");
    }

    /**
     * model.hybrid (a hybrid Mamba model's layers by kind and its mixer's sizes): read as written; a size past 65,536 or
     * below 1, and a pattern of another character, are SYN002 at the value and read as not written, as a Megatron script's
     * --mamba-* flags are.
     */
    /**
     * A native hybrid of gated delta nets (G) beside Mamba-2 (M): the pattern reads, its G places kept (gdnPattern), the
     * linear_* sizes read as a Megatron script's --linear-* flags are; a size the schema refuses is SYN002 at the value, read as
     * not written and kept among the refused keys (PAR015 names it left out); without a G no GDN sizes are read.
     */
    @Test
    void aNativeHybridStatesItsGatedDeltaNetSizesBesideTheMambaOnes() {
        Model ok = bind(JOB + "model:\n  hybrid: { pattern: \"MG*G\", mamba_num_heads: 64, linear_num_key_heads: 16, linear_num_value_heads: 32,"
                + " linear_key_head_dim: 128, linear_value_head_dim: 128, linear_conv_kernel_dim: 4 }\n");
        assertEquals(List.of(), ok.findings());
        Specs.Hybrid h = ok.jobs().get(0).model().hybrid();
        assertEquals("MG*G", h.gdnPattern());
        assertEquals(2, h.gdnLayers());
        assertEquals(List.of(16L, 32L, 128L, 128L, 4L), List.of(h.gdn().keyHeads().value(), h.gdn().valueHeads().value(),
                h.gdn().keyHeadDim().value(), h.gdn().valueHeadDim().value(), h.gdn().conv().value()));
        assertEquals(java.util.Set.of(), h.refused());
        String bad = JOB + "model:\n  hybrid: { pattern: \"G*G-\", linear_num_key_heads: 0, mamba_num_groups: 65537 }\n";
        assertEquals(List.of(
                "SYN002 t.yaml:4:52 [training_job:j/model/hybrid/linear_num_key_heads] 'linear_num_key_heads' is 0; expected a whole number from 1 to 65536.",
                "SYN002 t.yaml:4:73 [training_job:j/model/hybrid/mamba_num_groups] 'mamba_num_groups' is 65537; expected a whole number from 1 to 65536."),
                findings(bad));
        Specs.Hybrid refused = bind(bad).jobs().get(0).model().hybrid();
        assertNull(refused.gdn().keyHeads());
        assertNull(refused.groups());
        assertEquals(java.util.Set.of("linear_num_key_heads", "mamba_num_groups"), refused.refused());
        assertNull(bind(JOB + "model:\n  hybrid: { pattern: \"M*M-\", linear_num_key_heads: 16 }\n").jobs().get(0).model().hybrid().gdn(),
                "no G: no gated delta net");
    }

    @Test
    @CpuLimit(seconds = 30)   // the 65,537-letter pattern is refused before it is read: well under a second of CPU
    void aHybridModelIsReadAndItsOutOfRangeValuesAreSyn002AtTheValue() {
        Model ok = bind(JOB + "model:\n  hybrid: { pattern: \"MEM*E-\", mamba_num_heads: 64, mamba_head_dim: 64, mamba_state_dim: 128,"
                + " mamba_num_groups: 8, mamba_conv_kernel: 4 }\n");
        assertEquals(List.of(), ok.findings());
        Specs.Hybrid h = ok.jobs().get(0).model().hybrid();
        assertEquals("MEM*E-", h.pattern().value());
        assertEquals(List.of(64L, 64L, 128L, 8L, 4L), List.of(h.heads().value(), h.headDim().value(), h.state().value(), h.groups().value(),
                h.conv().value()));
        String bad = JOB + "model:\n  hybrid: { pattern: \"MXM\", mamba_num_heads: 65537, mamba_head_dim: 0 }\n";
        assertEquals(List.of(
                "SYN002 t.yaml:4:22 [training_job:j/model/hybrid/pattern] 'pattern' is 'MXM': one character per layer, M (Mamba-2),"
                        + " * (attention), - (MLP), E (MoE) or G (gated delta net), '|' between pipeline stages and the MTP layers' blocks after a '/' (one group"
                        + " per MTP layer, every group the same, at most 64), 1 to 65536 characters, as Megatron-Core's hybrid_override_pattern writes them;"
                        + " the estimate prices every layer as a transformer layer without it.",
                "SYN002 t.yaml:4:46 [training_job:j/model/hybrid/mamba_num_heads] 'mamba_num_heads' is 65537; expected a whole number from 1 to 65536.",
                "SYN002 t.yaml:4:69 [training_job:j/model/hybrid/mamba_head_dim] 'mamba_head_dim' is 0; expected a whole number from 1 to 65536."),
                findings(bad));
        assertNull(bind(bad).jobs().get(0).model().hybrid(), "nothing of it read");
        // beside a size in range, which is read
        Specs.Hybrid read = bind(bad.replace(" }", ", mamba_state_dim: 64 }")).jobs().get(0).model().hybrid();
        assertNull(read.pattern());
        // the refused heads: read as not written, and kept among the refused keys (PAR015 names them left out)
        assertNull(read.heads());
        assertEquals(java.util.Set.of("mamba_num_heads", "mamba_head_dim"), read.refused());
        assertNull(read.headDim());
        assertEquals(64L, read.state().value());
        // a pattern past 65,536 characters is refused before it is read: the documented finding (no hang: @CpuLimit), and not read
        String longer = JOB + "model:\n  hybrid: { pattern: \"" + "M".repeat(65537) + "\" }\n";
        List<String> past = findings(longer);
        assertEquals(1, past.size());
        assertTrue(past.get(0).startsWith("SYN002 t.yaml:4:22 [training_job:j/model/hybrid/pattern] 'pattern' is 'MMMM"), past.get(0));
        assertTrue(past.get(0).endsWith("(one group per MTP layer, every group the same, at most 64), 1 to 65536 characters, as"
                + " Megatron-Core's hybrid_override_pattern writes them; the estimate prices every layer as a transformer layer without"
                + " it."), past.get(0));
        assertNull(bind(longer).jobs().get(0).model().hybrid());
        // the bound itself is read
        assertEquals(65536, bind(JOB + "model:\n  hybrid: { pattern: \"" + "M".repeat(65536) + "\" }\n").jobs().get(0).model().hybrid()
                .pattern().value().length());
        assertNull(bind(JOB + "model:\n  layers: 4\n").jobs().get(0).model().hybrid(), "no model.hybrid: none");
    }

    /**
     * A space in model.hybrid.pattern: Megatron-Core strips nothing (hybrid_layer_allocation.py's _validate_pattern refuses every
     * character but the layer symbols), so a no-break space (U+00A0) or another non-ASCII space is refused wherever it stands,
     * as the JSON Schema refuses it (JsonSchemaTest); ASCII blanks around the pattern are trimmed, as YAML trims a plain scalar's.
     * The binder trimmed Java's whitespace (U+3000 among it, not U+00A0) where the schema's \\s took both.
     */
    @Test
    void aNonAsciiSpaceInAHybridPatternIsRefusedWhereverItStands() {
        for (String space : List.of("\u00a0", "\u2007", "\u202f", "\u3000", "\ufeff")) {
            for (String written : List.of("M-M*" + space, space + "M-M*", "M-" + space + "M*")) {
                String yaml = JOB + "model:\n  hybrid: { pattern: \"" + written + "\" }\n";
                int at = written.indexOf(space) + 1;
                assertEquals(List.of("SYN002 t.yaml:4:22 [training_job:j/model/hybrid/pattern] 'pattern' is '" + written + "': one character"
                        + " per layer, M (Mamba-2), * (attention), - (MLP), E (MoE) or G (gated delta net), '|' between pipeline stages and the MTP layers' blocks"
                        + " after a '/' (one group per MTP layer, every group the same, at most 64), 1 to 65536 characters, as Megatron-Core's"
                        + " hybrid_override_pattern writes them (character " + at + " of the pattern is "
                        + String.format("U+%04X", (int) space.charAt(0)) + " (a space): Megatron-Core strips nothing and refuses every"
                        + " character but the layer symbols; only ASCII blanks around the pattern are trimmed here); the estimate prices"
                        + " every layer as a transformer layer without it."), findings(yaml), written);
                assertNull(bind(yaml).jobs().get(0).model().hybrid(), written);
            }
        }
        // quiet: ASCII blanks around it (a quoted scalar keeps them) are trimmed
        for (String written : List.of(" M-M* ", "\\tM-M*\\n", "M-M*\\r\\f")) {
            Model m = bind(JOB + "model:\n  hybrid: { pattern: \"" + written + "\" }\n");
            assertEquals(List.of(), m.findings(), written);
            assertEquals("M-M*", m.jobs().get(0).model().hybrid().pattern().value(), written);
        }
    }
}
