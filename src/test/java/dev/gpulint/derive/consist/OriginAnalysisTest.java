package dev.gpulint.derive.consist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.core.Span;
import dev.gpulint.derive.Facts;
import dev.gpulint.derive.Resolved;
import dev.gpulint.facts.ConsistencyFact;
import dev.gpulint.facts.DeepSpeedBatchFact;
import dev.gpulint.facts.OriginFact;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.Specs;
import dev.gpulint.spec.Specs.Stated;
import dev.gpulint.spec.Specs.StatedKind;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OriginAnalysisTest {
    private static final Span A = Span.at("j.yaml", 1, 1), B = Span.at("j.yaml", 2, 1), C = Span.at("j.yaml", 3, 1);

    private static <T> Located<T> at(T v, Span s) { return new Located<>(v, s); }

    /** A job named {@code name} with only its environment and origin written. */
    private static Specs.Job spec(String name, Map<String, Located<String>> env, Specs.Origin o) {
        return new Specs.Job(at(name, A), "j.yaml", null, null, null, null, null, null, null, null, null, null, env, A, o, null, null, null,
                null, null, null);
    }

    private static List<Object> facts(List<Stated> stated, Map<String, Located<String>> env, Specs.DeepSpeedBatch ds, long dp) {
        Specs.Origin o = new Specs.Origin("Kubernetes PyTorchJob", stated, List.of(), true, false, null, ds, null, null, null, null);
        Specs.Job spec = spec("j", env, o);
        Resolved.Job r = new Resolved.Job(spec, "j", null, null, 0, 0, null, null, 0, 1, 1, 1, 1, 0, dp, false, List.of(), 1, 0);
        Facts out = new Facts();
        new OriginAnalysis().analyse(r, out);
        return out.list();
    }

    private static List<ConsistencyFact> pairs(List<Object> facts) {
        return facts.stream().filter(ConsistencyFact.class::isInstance).map(ConsistencyFact.class::cast).toList();
    }

    @Test
    void aPlaceIsComparedWithThePodsResourceAndCarriesBothNumbers() {
        List<ConsistencyFact> p = pairs(facts(List.of(
                new Stated("per_node", "8", "the launcher's --nproc-per-node", StatedKind.LAUNCHER, A),
                new Stated("per_node", "4", "the pod's nvidia.com/gpu", StatedKind.RESOURCE, B),
                new Stated("per_node", "4", "the config's devices", StatedKind.CONFIG, C)), Map.of(), null, 0));
        assertEquals(1, p.size(), "the agreeing place is no pair");
        ConsistencyFact c = p.get(0);
        assertEquals("per_node", c.getQuantity());
        assertEquals(dev.gpulint.facts.StatedQuantity.PER_NODE, c.getQuantityKind());
        assertEquals(8, c.getFoundNumber());
        assertEquals(dev.gpulint.spec.Specs.StatedKind.LAUNCHER, c.getFoundKind());
        assertEquals(A, c.getFoundSpan());
        assertEquals(4, c.getReferenceNumber());
        assertEquals(dev.gpulint.spec.Specs.StatedKind.RESOURCE, c.getReferenceKind());
        assertEquals("the pod's nvidia.com/gpu", c.getReferenceWhere());
    }

    private static List<ConsistencyFact> variable(boolean decided, Map<String, Located<String>> env) {
        List<Stated> stated = List.of(new Stated("env:NCCL_IB_DISABLE", "0", "container env", StatedKind.CONFIG, A),
                new Stated("env:NCCL_IB_DISABLE", "1", "mpirun -x", StatedKind.CONFIG, B));
        Map<String, String> keys = decided ? Map.of(Specs.Origin.launchEnv("NCCL_IB_DISABLE"), "NCCL_IB_DISABLE") : Map.of();
        Specs.Origin o = new Specs.Origin("Kubernetes MPIJob", stated, List.of(), true, false, null, null, null, null, null, keys);
        Resolved.Job r = new Resolved.Job(spec("j", env, o), "j", null, null, 0, 0, null, null, 0, 1, 1, 1, 1, 0, 1, false, List.of(), 1, 0);
        Facts out = new Facts();
        new OriginAnalysis().analyse(r, out);
        return pairs(out.list());
    }

    @Test
    void aVariableTheLaunchersPrecedenceDecidedNamesTheValueTheRanksGetAndWhere() {
        ConsistencyFact mpi = variable(true, Map.of("NCCL_IB_DISABLE", at("1", B))).get(0);
        assertTrue(mpi.isLaunchKnown());
        assertEquals("1", mpi.getLaunchValue());
        assertEquals("mpirun -x", mpi.getLaunchWhere());
        assertEquals("MPI", mpi.getLaunchWhy());
        assertFalse(mpi.isLaunchGetsNone());
        ConsistencyFact none = variable(true, Map.of()).get(0);
        assertTrue(none.isLaunchGetsNone(), "decided, and the launch's env lacks it: the ranks get neither");
        assertNull(none.getLaunchWhere());
        assertFalse(variable(false, Map.of("NCCL_IB_DISABLE", at("0", A))).get(0).isLaunchKnown(), "not decided: unknown");
        assertFalse(variable(true, Map.of("NCCL_IB_DISABLE", at("1", C))).get(0).isLaunchKnown(),
                "a bound value that is none of the statements names no place");
    }

    @Test
    void aNameWithoutSpanPointsAtTheReferenceAndAVariableIsNoNumber() {
        List<ConsistencyFact> p = pairs(facts(List.of(
                new Stated("tp", "2", "the folder name 'tp2' (tp2)", StatedKind.NAME, null),
                new Stated("tp", "4", "--tensor-model-parallel-size", StatedKind.CONFIG, B),
                new Stated("env:NCCL_IB_HCA", "mlx5_0", "the container's env", StatedKind.CONFIG, A),
                new Stated("env:NCCL_IB_HCA", "mlx5_1", "the script's export", StatedKind.CONFIG, C),
                new Stated("env:NCCL_IB_HCA", "mlx5_1", "the script's export", StatedKind.CONFIG, C)), Map.of(), null, 0));
        assertEquals(2, p.size(), "one place stating one value is one pair");
        assertEquals(dev.gpulint.spec.Specs.StatedKind.NAME, p.get(0).getFoundKind());
        assertEquals(B, p.get(0).getFoundSpan());
        assertEquals(dev.gpulint.facts.StatedQuantity.TP, p.get(0).getQuantityKind());
        assertEquals("NCCL_IB_HCA", p.get(1).getVariable());
        assertEquals(-1, p.get(1).getFoundNumber());
        assertEquals("mlx5_0", p.get(1).getReferenceValue());
    }

    @Test
    void theProgramsGpusAreComparedWithThePod() {
        List<ConsistencyFact> p = pairs(facts(List.of(
                new Stated("per_node", "4", "the pod's nvidia.com/gpu", StatedKind.RESOURCE, B),
                new Stated("app_gpus_per_node", "8", "trainer.devices", StatedKind.CONFIG, A),
                new Stated("app_gpus_per_node", "4", "trainer.devices", StatedKind.CONFIG, C)), Map.of(), null, 0));
        assertEquals(1, p.size());
        assertEquals("app_gpus_per_node", p.get(0).getQuantity());
        assertEquals(8, p.get(0).getFoundNumber());
        assertEquals(4, p.get(0).getReferenceNumber());
    }

    @Test
    void rdmaAccessAndTheBatchTriple() {
        List<Object> f = facts(List.of(), Map.of("NCCL_IB_HCA", at("mlx5", C)),
                new Specs.DeepSpeedBatch(at(1000L, A), at(16L, B), null), 8);
        OriginFact o = f.stream().filter(OriginFact.class::isInstance).map(OriginFact.class::cast).findFirst().orElseThrow();
        assertEquals("mlx5", o.getIbHca());
        assertEquals(C, o.getIbHcaSpan());
        assertEquals(0, o.getRdmaResources());
        assertTrue(o.isPodsVisible());
        assertFalse(o.isRdmaByAccess());
        DeepSpeedBatchFact b = f.stream().filter(DeepSpeedBatchFact.class::isInstance).map(DeepSpeedBatchFact.class::cast)
                .findFirst().orElseThrow();
        assertEquals(1000, b.getTrainBatch());
        assertEquals(0, b.getAccumulation());
        assertNull(b.getAccumulationSpan());
        assertEquals(8, b.getDp());
        assertEquals(128, b.getPerStep(), "16 × (unknown accumulation) × 8");
    }

    @Test
    void noOriginNoFacts() {
        Specs.Job spec = spec("j", Map.of(), null);
        Facts out = new Facts();
        new OriginAnalysis().analyse(new Resolved.Job(spec, "j", null, null, 0, 0, null, null, 0, 1, 1, 1, 1, 0, 0, false, List.of(), 1, 0), out);
        assertTrue(out.list().isEmpty());
    }

    /**
     * One analysis over several jobs (a derive run of the plan's candidate jobs, which share their job's origin object)
     * gives each job its own facts, under its own name, as an analysis of that job alone does; and a job of another
     * origin after them is compared afresh, not given the remembered comparisons.
     */
    @Test
    void oneAnalysisOfJobsSharingAnOriginGivesEachItsOwnFacts() {
        Specs.Origin shared = new Specs.Origin("Kubernetes PyTorchJob", List.of(
                new Stated("per_node", "8", "the launcher's --nproc-per-node", StatedKind.LAUNCHER, A),
                new Stated("per_node", "4", "the pod's nvidia.com/gpu", StatedKind.RESOURCE, B)), List.of(), true, false, null, null, null, null, null, null);
        Specs.Origin other = new Specs.Origin("Kubernetes PyTorchJob", List.of(
                new Stated("tp", "2", "the launcher's --tensor-model-parallel-size", StatedKind.LAUNCHER, A),
                new Stated("tp", "4", "the config's tensor_model_parallel_size", StatedKind.CONFIG, C)), List.of(), true, false, null, null, null, null, null, null);
        OriginAnalysis one = new OriginAnalysis();
        Facts together = new Facts();
        List<Resolved.Job> jobs = List.of(job("a", shared), job("b", shared), job("c", other));
        for (Resolved.Job r : jobs) one.analyse(r, together);
        List<ConsistencyFact> all = pairs(together.list());
        assertEquals(3, all.size());
        for (int i = 0; i < jobs.size(); i++) {
            Facts alone = new Facts();
            new OriginAnalysis().analyse(jobs.get(i), alone);
            ConsistencyFact expected = pairs(alone.list()).get(0), got = all.get(i);
            assertEquals(jobs.get(i).spec().name().value(), got.getJob());
            assertEquals(expected.getJob(), got.getJob());
            assertEquals(expected.getQuantity(), got.getQuantity());
            assertEquals(expected.getFoundNumber(), got.getFoundNumber());
            assertEquals(expected.getFoundSpan(), got.getFoundSpan());
            assertEquals(expected.getReferenceNumber(), got.getReferenceNumber());
            assertEquals(expected.getReferenceWhere(), got.getReferenceWhere());
        }
        assertEquals("tp", all.get(2).getQuantity(), "the third job's own origin, not the remembered one");
        assertEquals(3, together.list().stream().filter(OriginFact.class::isInstance).count(), "an origin fact per job");
    }

    private static Resolved.Job job(String name, Specs.Origin o) {
        Specs.Job spec = spec(name, Map.of(), o);
        return new Resolved.Job(spec, name, null, null, 0, 0, null, null, 0, 1, 1, 1, 1, 0, 1, false, List.of(), 1, 0);
    }
}
