package dev.gpulint.bind.adapt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.read.Readers;
import dev.gpulint.read.SourceFile;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.Specs;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The value a launch's ranks get of a variable stated twice, and whether a launcher's known precedence decided it
 * (LaunchEnvironment.bind, LaunchEnvironment.launcherSets; {@link Specs.Origin#isLaunchDecided}): what CONSIST005 says
 * and the NCCL rules read.
 */
class LaunchDecidedTest {

    private static Specs.Job job(String name, String text) {
        SourceFile f = SourceFile.of(name, text);
        List<Specs.Job> jobs = Adapters.bind(List.of(new Adapters.Input(f, Readers.read(f).foreign()))).jobs();
        assertEquals(1, jobs.size(), text);
        return jobs.get(0);
    }

    private static String ib(Specs.Job j) {
        Located<String> v = j.env().get("NCCL_IB_DISABLE");
        return v == null ? null : v.value() + " at " + v.span().startLine() + ":" + v.span().startColumn();
    }

    private static Specs.Job sbatch(String script) {
        return job("train.sbatch", "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --gpus-per-node=8\n" + script);
    }

    private static String mpiJob(String first, String second) {
        return "apiVersion: kubeflow.org/v2beta1\nkind: MPIJob\nmetadata:\n  name: mpi\nspec:\n  slotsPerWorker: 8\n  mpiReplicaSpecs:\n"
                + first + second;
    }

    private static final String WORKER = "    Worker:\n      replicas: 2\n      template:\n        spec:\n          containers:\n"
            + "            - env: [ { name: NCCL_IB_DISABLE, value: \"1\" } ]\n"
            + "              resources: { limits: { nvidia.com/gpu: 8 } }\n";

    private static String launcher(String x) {
        return "    Launcher:\n      template:\n        spec:\n          containers:\n"
                + "            - command: [mpirun, -np, \"16\", -x, NCCL_IB_DISABLE=" + x + ", python, train.py]\n";
    }

    @Test
    void srunsPrecedenceDecidesTheLaunchsValue() {
        Specs.Job all = sbatch("export NCCL_IB_DISABLE=1\nsrun --export=ALL,NCCL_IB_DISABLE=0 python train.py\n");
        assertEquals("1 at 4:24", ib(all));
        assertTrue(all.origin().isLaunchDecided("NCCL_IB_DISABLE"));
        Specs.Job list = sbatch("export NCCL_IB_DISABLE=1\nsrun --export=PATH,NCCL_IB_DISABLE=0 python train.py\n");
        assertEquals("0 at 5:36", ib(list));
        assertTrue(list.origin().isLaunchDecided("NCCL_IB_DISABLE"));
    }

    @Test
    void mpirunXGoesOverTheScriptsExport() {
        Specs.Job j = sbatch("export NCCL_IB_DISABLE=1\nmpirun -np 16 -x NCCL_IB_DISABLE=0 python train.py\n");
        assertEquals("0 at 5:34", ib(j));
        assertTrue(j.origin().isLaunchDecided("NCCL_IB_DISABLE"));
    }

    @Test
    void mpirunXGoesOverEveryPodsEnvWhicheverPodComesFirst() {
        Specs.Job launcherFirst = job("mpi.yaml", mpiJob(launcher("0"), WORKER));
        assertEquals("0 at 12:64", ib(launcherFirst));
        assertTrue(launcherFirst.origin().isLaunchDecided("NCCL_IB_DISABLE"));
        Specs.Job workerFirst = job("mpi.yaml", mpiJob(WORKER, launcher("0")));
        assertEquals("0 at 19:64", ib(workerFirst));
        assertTrue(workerFirst.origin().isLaunchDecided("NCCL_IB_DISABLE"));
    }

    @Test
    void anMpirunXValueNotWrittenInTheFileIsNoPodsEnv() {
        Specs.Job j = job("mpi.yaml", mpiJob(WORKER, launcher("$IB")));
        assertNull(ib(j), "the ranks get $IB, not the worker's 1");
        assertFalse(j.origin().isLaunchDecided("NCCL_IB_DISABLE"));
    }

    @Test
    void anUnsetBeforeTheLaunchIsDecidedAndNone() {
        Specs.Job j = sbatch("export NCCL_IB_DISABLE=1\nunset NCCL_IB_DISABLE\ntorchrun --nproc_per_node=8 train.py\n");
        assertNull(ib(j));
        assertTrue(j.origin().isLaunchDecided("NCCL_IB_DISABLE"));
    }

    @Test
    void megatronsEnvVarsAndBeforeScriptAreNotDecided() {
        Specs.Job j = job("tests/a/model_config.yaml",
                "ENV_VARS:\n  NCCL_IB_SL: 1\nBEFORE_SCRIPT: |\n  export NCCL_IB_SL=3\nMODEL_ARGS:\n  --tensor-model-parallel-size: 4\n");
        assertEquals("1", j.env().get("NCCL_IB_SL").value(), "the first statement binds");
        assertFalse(j.origin().isLaunchDecided("NCCL_IB_SL"));
    }
}
