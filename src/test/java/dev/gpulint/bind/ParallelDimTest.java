package dev.gpulint.bind;

import static dev.gpulint.spec.ParallelDim.CP;
import static dev.gpulint.spec.ParallelDim.DP;
import static dev.gpulint.spec.ParallelDim.EP;
import static dev.gpulint.spec.ParallelDim.ETP;
import static dev.gpulint.spec.ParallelDim.PP;
import static dev.gpulint.spec.ParallelDim.TP;
import static dev.gpulint.spec.ParallelDim.VPP;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.derive.estimate.Layout;
import dev.gpulint.read.SourceFile;
import dev.gpulint.read.yaml.YamlReader;
import dev.gpulint.spec.Model;
import dev.gpulint.spec.ParallelDim;
import dev.gpulint.spec.Specs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The parallel dimensions' own knowledge (spec.ParallelDim): their keys are the native manifest's parallelism sizes
 * (the binder's schema and docs/format.md), each binds to its own dimension, the rank order's dimensions and default,
 * and the GPU count as the product of tp, cp, dp and pp.
 */
class ParallelDimTest {

    /** The schema's integer sizes under parallelism that are no dimension of their own (HSDP's shard group, uneven stages). */
    private static final Set<String> NOT_DIMENSIONS = Set.of("dp_shard", "first_stage_layers", "last_stage_layers");

    @Test
    void theKeysAreTheManifestsParallelSizes() {
        Schema.Field par = Schema.field(Schema.JOB, "parallelism");
        Set<String> sizes = new TreeSet<>();
        par.children().forEach((k, f) -> {
            if (f.type() == Schema.Type.INT && !NOT_DIMENSIONS.contains(k)) sizes.add(k);
        });
        Set<String> keys = new TreeSet<>();
        for (ParallelDim d : ParallelDim.values()) keys.add(d.key());
        assertEquals(Set.of("tp", "pp", "dp", "cp", "ep", "etp", "virtual_pp"), keys);
        assertEquals(keys, sizes, "every integer size of parallelism is a dimension, and every dimension one of them");
    }

    @Test
    void docsFormatNamesEveryKeyUnderParallelism() throws IOException {
        String doc = Files.readString(Path.of("..", "docs", "format.md"));
        int at = doc.indexOf("`parallelism` {");
        assertTrue(at >= 0, "docs/format.md lists the parallelism fields");
        String list = doc.substring(at, doc.indexOf("`batch`", at));
        for (ParallelDim d : ParallelDim.values()) {
            assertTrue(list.contains("`" + d.key() + "`"), d.key() + " in docs/format.md's parallelism list: " + list);
        }
    }

    @Test
    void eachKeyBindsToItsOwnDimension() {
        Model m = new Binder().bind(new YamlReader().read(SourceFile.of("t.yaml", "kind: training_job\nname: j\n"
                + "parallelism: { tp: 2, pp: 3, dp: 5, cp: 7, ep: 11, etp: 13, virtual_pp: 17 }\n")).documents());
        assertEquals(List.of(), m.findings());
        Specs.Parallelism p = m.jobs().get(0).parallelism();
        Map<ParallelDim, Long> bound = new EnumMap<>(ParallelDim.class);
        for (ParallelDim d : ParallelDim.values()) bound.put(d, p.size(d).value());
        assertEquals(Map.of(TP, 2L, PP, 3L, DP, 5L, CP, 7L, EP, 11L, ETP, 13L, VPP, 17L), bound);
        // the named accessors agree with the dimension's
        assertEquals(List.of(p.tp(), p.pp(), p.dp(), p.cp(), p.ep(), p.expertTp(), p.virtualPp()),
                List.of(p.size(TP), p.size(PP), p.size(DP), p.size(CP), p.size(EP), p.size(ETP), p.size(VPP)));
    }

    @Test
    void aPlaceholderSizeIsUnknownUnderItsKey() {
        Model m = new Binder().bind(new YamlReader().read(SourceFile.of("t.yaml", "kind: training_job\nname: j\n"
                + "parallelism:\n  etp: ${ETP}\n  virtual_pp: ${VPP}\n  tp: 2\n")).documents());
        Specs.Parallelism p = m.jobs().get(0).parallelism();
        List<ParallelDim> unknown = new ArrayList<>();
        for (ParallelDim d : ParallelDim.values()) if (p.isUnknown(d)) unknown.add(d);
        assertEquals(List.of(ETP, VPP), unknown);
    }

    @Test
    void theRankOrderNamesFiveDimensionsMegatronFirst() {
        assertEquals(List.of(TP, CP, EP, DP, PP), ParallelDim.DEFAULT_ORDER);
        assertEquals(List.of("tp", "cp", "ep", "dp", "pp"), ParallelDim.rankedLabels());
        assertEquals(Schema.ORDER_DIMS, ParallelDim.rankedLabels());
        assertEquals("tp-cp-ep-dp-pp", ParallelDim.orderText(ParallelDim.DEFAULT_ORDER));
        // completed in the default order; dimensions with no place in an order, and repeats, left out
        assertEquals(List.of(PP, TP, CP, EP, DP), ParallelDim.completeOrder(List.of(PP, VPP, TP, PP, ETP)));
        assertEquals(ParallelDim.DEFAULT_ORDER, ParallelDim.completeOrder(null));
        assertEquals(ParallelDim.DEFAULT_ORDER, ParallelDim.completeOrder(List.of()));
        // a whole order is its own answer; five names with a repeat or one of no place are no whole order
        assertEquals(List.of(PP, DP, EP, CP, TP), ParallelDim.completeOrder(new java.util.ArrayList<>(List.of(PP, DP, EP, CP, TP))));
        assertEquals(List.of(PP, TP, CP, EP, DP), ParallelDim.completeOrder(List.of(PP, PP, TP, CP, EP)));
        assertEquals(List.of(PP, TP, CP, EP, DP), ParallelDim.completeOrder(List.of(PP, VPP, TP, CP, EP)));
    }

    @Test
    void aLabelIsTheShortNameOnly() {
        assertEquals(Optional.of(VPP), ParallelDim.ofLabel("vpp"));
        assertEquals(Optional.empty(), ParallelDim.ofLabel("virtual_pp"), "the manifest key is no label");
        assertEquals(Optional.empty(), ParallelDim.ofLabel("TP"), "case as written: the binder lower-cases an order");
        for (ParallelDim d : ParallelDim.values()) {
            assertEquals(Optional.of(d), ParallelDim.ofLabel(d.label()));
            assertEquals(d.label(), d.toString(), "text built from a dimension reads as reports write it");
        }
    }

    @Test
    void theGpuCountIsTheProductOfTpCpDpPp() {
        assertEquals(List.of(TP, CP, DP, PP), ParallelDim.WORLD);
        for (ParallelDim d : ParallelDim.values()) assertEquals(ParallelDim.WORLD.contains(d), d.multipliesWorld(), d.label());
        Map<ParallelDim, Long> sizes = new EnumMap<>(Map.of(TP, 8L, CP, 2L, DP, 4L, PP, 3L, EP, 8L, ETP, 2L, VPP, 5L));
        assertEquals(192, ParallelDim.world(sizes), "ep, etp and vpp split the same GPUs");
        assertEquals(8, ParallelDim.world(Map.of(TP, 8L)), "an absent size counts 1");
        assertEquals(Long.MAX_VALUE, ParallelDim.world(Map.of(TP, 1L << 40, DP, 1L << 40)), "saturates");
        // the layout's GPU count is the same product
        Layout l = new Layout(8, 3, 4, 2, 8, 5, 1, 96, 0, false, Layout.Recompute.SELECTIVE, true);
        Map<ParallelDim, Long> chosen = new EnumMap<>(ParallelDim.class);
        for (ParallelDim d : List.of(TP, PP, DP, CP, EP, VPP)) chosen.put(d, (long) l.size(d));
        assertEquals(Map.of(TP, 8L, PP, 3L, DP, 4L, CP, 2L, EP, 8L, VPP, 5L), chosen);
        assertEquals(l.gpus(), ParallelDim.world(chosen));
    }
}
