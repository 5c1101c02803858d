package dev.gpulint.facts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.core.Span;
import dev.gpulint.engine.FactProperties;
import dev.gpulint.engine.FindingSink;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.drools.model.codegen.ExecutableModelProject;
import org.junit.jupiter.api.Test;
import org.kie.api.KieBase;
import org.kie.api.io.ResourceType;
import org.kie.api.runtime.KieSession;
import org.kie.internal.utils.KieHelper;

/**
 * The {@code sized*} properties are SizedFact's default methods, written once for MemoryFact and StageMemoryFact: each
 * reader of a fact's properties must see them on both classes. Drools' executable model (the built-in rules, compiled by
 * kie-maven-plugin) and its MVEL-compiled DRL (a team's rules, engine.UserRules) read them in conditions (Drools resolves
 * default methods inherited from interfaces since DROOLS-6358, apache/incubator-kie-drools PR #3627); the message templates
 * through engine.FactProperties (Class#getMethods). FactsDocTest holds docs/writing-rules.md's tables of both facts.
 */
class SizedFactTest {

    /** 96 GPUs: 12 nodes × 8 of group 'h100', capped at no limit, rounded down to a multiple of grid 16 and to perStep 48's divisors. */
    private static final AssumedSize SIZE = new AssumedSize(96, 12, 8, true, "h100", 16384, false, 16, true, 48, true);

    private static final List<String> NAMES = List.of("sized", "sizedGpus", "sizedNodes", "sizedPerNode", "sizedAllNodes",
            "sizedGroup", "sizedLimit", "sizedCapped", "sizedGrid", "sizedGridRounded", "sizedPerStep", "sizedBatchRounded");

    private static MemoryFact memory(String job) {
        return new MemoryFact(job, "c.yaml", 70e9, null, 16, false, 140e9, 140e9, 840e9, 8, 1, 12, 1, 70e9, 80e9,
                "H100-SXM5-80GB", "h100", false, null);
    }

    private static StageMemoryFact stage(String job) {
        return new StageMemoryFact(job, "c.yaml", "H100-SXM5-80GB", () -> "tp 8, pp 2, dp 6", "none", 0, 2,
                10e9, 20e9, 50e9, 5e9, 80e9, null);
    }

    private static Map<String, Object> expected(AssumedSize s) {
        Map<String, Object> m = new TreeMap<>();
        m.put("sized", s.gpus() > 0);
        m.put("sizedGpus", s.gpus());
        m.put("sizedNodes", s.nodes());
        m.put("sizedPerNode", s.perNode());
        m.put("sizedAllNodes", s.allNodes());
        m.put("sizedGroup", s.group());
        m.put("sizedLimit", s.limit());
        m.put("sizedCapped", s.capped());
        m.put("sizedGrid", s.grid());
        m.put("sizedGridRounded", s.gridRounded());
        m.put("sizedPerStep", s.perStep());
        m.put("sizedBatchRounded", s.batchRounded());
        return m;
    }

    private static Map<String, Object> read(Object fact) {
        Map<String, Object> m = new TreeMap<>();
        for (String n : NAMES) m.put(n, FactProperties.has(fact, n) ? FactProperties.get(fact, n) : "(no property)");
        return m;
    }

    @Test
    void bothFactsShowTheTwelveSizedPropertiesToTheTemplates() {
        for (SizedFact f : List.of(memory("j").sized(SIZE), stage("j").sized(SIZE))) {
            assertEquals(expected(SIZE), read(f), f.getClass().getSimpleName());
        }
        for (SizedFact f : List.of(memory("j"), stage("j"))) {
            assertEquals(expected(AssumedSize.NONE), read(f), f.getClass().getSimpleName() + " unsized");
        }
    }

    @Test
    void aTemplateWordsTheSizeFromEitherFact() {
        Map<String, String> templates = Map.of("k", "{sized?at {sizedGpus} GPUs: {sizedAllNodes?all the|its} {sizedNodes} nodes of"
                + " '{sizedGroup}' × {sizedPerNode}{sizedGridRounded?, a multiple of {sizedGrid}}{sizedBatchRounded?, dividing {sizedPerStep}}"
                + "{sizedCapped?, at most {sizedLimit}}|as stated}");
        for (Object f : List.of(memory("j").sized(SIZE), stage("j").sized(SIZE))) {
            FindingSink sink = new FindingSink(id -> templates);
            sink.firing("TEST1");
            sink.about(f).at(Span.at("c.yaml", 1, 1), "j").report("k");
            assertEquals("at 96 GPUs: all the 12 nodes of 'h100' × 8, a multiple of 16, dividing 48.", sink.findings().get(0).message(),
                    f.getClass().getSimpleName());
        }
        FindingSink sink = new FindingSink(id -> templates);
        sink.firing("TEST1");
        sink.about(stage("j")).at(Span.at("c.yaml", 1, 1), "j").report("k");
        assertEquals("as stated.", sink.findings().get(0).message());
    }

    /** Conditions on the default getters of both facts; each rule records the job of the fact it matched. */
    private static final String DRL = """
            package dev.gpulint.test;
            import dev.gpulint.facts.MemoryFact;
            import dev.gpulint.facts.StageMemoryFact;
            global java.util.List fired;
            rule "memory at an assumed size"
            when
                MemoryFact( sized, sizedGpus == 96, sizedNodes == 12, sizedPerNode == 8, sizedAllNodes, sizedGroup == "h100",
                            sizedLimit == 16384, !sizedCapped, sizedGrid == 16, sizedGridRounded, sizedPerStep == 48,
                            sizedBatchRounded, $j : jobName )
            then
                fired.add("memory " + $j);
            end
            rule "stage at an assumed size"
            when
                StageMemoryFact( sized, sizedGpus > 64, sizedGroup == "h100", sizedBatchRounded, $j : jobName )
            then
                fired.add("stage " + $j);
            end
            """;

    private static List<String> fire(KieBase base) {
        KieSession s = base.newKieSession();
        List<String> fired = new ArrayList<>();
        try {
            s.setGlobal("fired", fired);
            s.insert(memory("sized").sized(SIZE));
            s.insert(memory("stated"));
            s.insert(stage("sized").sized(SIZE));
            s.insert(stage("stated"));
            s.fireAllRules();
        } finally {
            s.dispose();
        }
        fired.sort(null);
        return fired;
    }

    @Test
    void droolsExecutableModelReadsTheDefaultGetters() {
        KieBase base = new KieHelper().addContent(DRL, ResourceType.DRL).build(ExecutableModelProject.class);
        assertEquals(List.of("memory sized", "stage sized"), fire(base));
    }

    @Test
    void droolsMvelCompiledRulesReadTheDefaultGetters() {
        KieBase base = new KieHelper().addContent(DRL, ResourceType.DRL).build();
        assertEquals(List.of("memory sized", "stage sized"), fire(base));
    }

    @Test
    void theSizedGettersHaveOneDefinition() throws NoSuchMethodException {
        for (Class<?> c : List.of(MemoryFact.class, StageMemoryFact.class)) {
            assertTrue(SizedFact.class.isAssignableFrom(c), c.getSimpleName());
            assertEquals(SizedFact.class, c.getMethod("getSizedGpus").getDeclaringClass(), c.getSimpleName());
            assertEquals(SizedFact.class, c.getMethod("isSizedBatchRounded").getDeclaringClass(), c.getSimpleName());
        }
    }
}
