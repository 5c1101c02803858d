package dev.gpulint.bind.adapt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.core.Span;
import dev.gpulint.read.Readers;
import dev.gpulint.read.SourceFile;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.Specs;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The environment srun gives a launch's tasks, as srun builds it (srun(1) --export, srun's _build_user_env): which words are
 * srun's options, which --export counts, ALL's precedence of the caller's variables, NONE ending the list, SLURM_EXPORT_ENV.
 */
class SrunLaunchEnvironmentTest {

    private static Specs.Job job(String script) {
        SourceFile f = SourceFile.of("train.sbatch", "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --gpus-per-node=8\n" + script);
        List<Specs.Job> jobs = Adapters.bind(List.of(new Adapters.Input(f, Readers.read(f).foreign()))).jobs();
        assertEquals(1, jobs.size(), script);
        return jobs.get(0);
    }

    private static String ib(String script) {
        Located<String> v = job(script).env().get("NCCL_IB_DISABLE");
        return v == null ? null : v.value() + " at " + v.span().startLine() + ":" + v.span().startColumn();
    }

    @Test
    void theProgramsOwnOptionsAreNotSruns() {
        // --exclusive takes its value only attached: python is srun's program, and the --export after it is the program's
        assertEquals("1 at 4:24", ib("export NCCL_IB_DISABLE=1\nsrun --exclusive python -u train.py --export=NONE\n"));
        assertEquals("1 at 4:24", ib("export NCCL_IB_DISABLE=1\nsrun -K python -u train.py --export=NONE\n"));
        assertNull(ib("export NCCL_IB_DISABLE=1\nsrun -l --export=NONE python train.py\n"), "-l takes no value: the --export after it is srun's");
    }

    @Test
    void aNoValueOptionBeforePythonLeavesSrunTheLauncherOfOneRankPerTask() {
        Specs.Job j = job("#SBATCH --ntasks-per-node=8\nsrun -l python pretrain.py --tensor-model-parallel-size 2\n");
        assertTrue(j.origin().stated().stream().anyMatch(s -> s.quantity().equals("per_node")
                && s.where().equals("#SBATCH --ntasks-per-node (one rank per task)")), j.origin().stated().toString());
        Specs.Job n = job("srun -lN2 python pretrain.py --tensor-model-parallel-size 2\n");
        assertTrue(n.origin().stated().stream().anyMatch(s -> s.quantity().equals("nodes") && s.where().equals("srun --nodes")
                && s.span().equals(new Span("train.sbatch", 4, 9, 4, 10))), n.origin().stated().toString());
    }

    @Test
    void withAllTheCallersExportedValueTakesPrecedenceOverTheLists() {
        assertEquals("1 at 4:24", ib("export NCCL_IB_DISABLE=1\nsrun --export=ALL,NCCL_IB_DISABLE=0 python train.py\n"));
        assertEquals("1 at 4:24", ib("export NCCL_IB_DISABLE=1\nsrun --export=all,NCCL_IB_DISABLE=0 python train.py\n"), "ALL in any case");
        assertEquals("1 at 4:35", ib("srun --export=ALL,NCCL_IB_DISABLE=1 python train.py\n"), "the caller does not export it: the list's value");
        assertEquals("1 at 5:35", ib("NCCL_IB_DISABLE=0\nsrun --export=ALL,NCCL_IB_DISABLE=1 python train.py\n"),
                "a shell variable not exported is not the caller's environment");
        assertEquals("0 at 5:31", ib("export NCCL_IB_DISABLE=1\nsrun --export=NCCL_IB_DISABLE=0 python train.py\n"),
                "no ALL: the list alone");
        assertEquals("1 at 5:24", ib("#SBATCH --export=ALL,NCCL_IB_DISABLE=0\nexport NCCL_IB_DISABLE=1\nsrun python train.py\n"),
                "#SBATCH --export=ALL,NAME=V: the step inherits the list, and the script's export is its caller's environment");
        assertEquals("0 at 4:38", ib("#SBATCH --export=ALL,NCCL_IB_DISABLE=0\nsrun python train.py\n"),
                "the script does not export it: the list's value, which sbatch gave the batch shell");
    }

    @Test
    void noneEndsTheListAndNilIsNoKeyword() {
        assertNull(ib("export NCCL_IB_DISABLE=0\nsrun --export=NONE,NCCL_IB_DISABLE=1 python train.py\n"));
        assertEquals("1 at 4:31", ib("srun --export=NCCL_IB_DISABLE=1,NONE python train.py\n"), "set before NONE");
        assertNull(ib("export NCCL_IB_DISABLE=1\nsrun --export=NIL python train.py\n"), "NIL names a variable: no ALL");
        assertNull(ib("srun --export=ALL,NCCL_IB_DISABLE=1 --export=NCCL_DEBUG=INFO python train.py\n"), "the last --export counts");
    }

    @Test
    void slurmExportEnvIsSrunsExportList() {
        assertEquals("1 at 4:45", ib("export SLURM_EXPORT_ENV=ALL,NCCL_IB_DISABLE=1\nsrun python train.py\n"));
        assertNull(ib("export NCCL_IB_DISABLE=1\nexport SLURM_EXPORT_ENV=NONE\nsrun python train.py\n"));
        assertEquals("1 at 4:34", ib("#SBATCH --export=NCCL_IB_DISABLE=1\nsrun python train.py\n"), "#SBATCH --export, which the steps inherit");
    }

    @Test
    void aHelperStepsExportListIsNotTheLaunchs() {
        assertNull(ib("srun --ntasks-per-node=1 --export=ALL,NCCL_IB_DISABLE=1 hostname\nsrun python train.py\n"),
                "the helper step's list sets its own tasks' environment");
        assertNull(ib("srun --ntasks-per-node=1 --export=NCCL_IB_DISABLE=1 mkdir -p /tmp/x\nsrun python train.py\n"));
        assertEquals("1 at 5:31", ib("srun --ntasks-per-node=1 mkdir -p /tmp/x\nsrun --export=NCCL_IB_DISABLE=1 python train.py\n"),
                "the launch's own list");
        assertTrue(job("srun -N1 --export=ALL,NCCL_IB_DISABLE=1 hostname\nsrun python train.py\n").origin().stated().stream()
                .noneMatch(s -> s.quantity().equals("env:NCCL_IB_DISABLE")), "nor a statement of the job's variable (CONSIST005)");
    }

    @Test
    void aValueWithACommaIsCutWhereSrunCutsIt() {
        Located<String> v = job("srun --export=ALL,NCCL_IB_HCA=mlx5_0,mlx5_1 python train.py\n").env().get("NCCL_IB_HCA");
        assertEquals("mlx5_0 at 4:31", v.value() + " at " + v.span().startLine() + ":" + v.span().startColumn(),
                "the ranks get the first HCA only");
    }

    @Test
    void aNameListedAloneAfterItsValueTakesSrunsOwnWhereItHasOne() {
        // _build_user_env writes NAME=1, then the bare NAME overwrites it with getenv(NAME) where srun's environment has it
        assertEquals("0 at 4:24", ib("export NCCL_IB_DISABLE=0\nsrun --export=NCCL_IB_DISABLE=1,NCCL_IB_DISABLE python train.py\n"),
                "the script exports it: srun's own value");
        assertEquals("1 at 6:31", ib("export NCCL_IB_DISABLE=0\nunset NCCL_IB_DISABLE\nsrun --export=NCCL_IB_DISABLE=1,NCCL_IB_DISABLE python train.py\n"),
                "unset before srun: the list's value stays");
        Specs.Job unknown = job("srun --export=NCCL_IB_DISABLE=1,NCCL_IB_DISABLE python train.py\n");
        assertNull(unknown.env().get("NCCL_IB_DISABLE"), "the script says nothing of it: the submitting shell decides, unknown");
        assertTrue(unknown.origin().stated().stream().anyMatch(s -> s.quantity().equals("env:NCCL_IB_DISABLE")),
                "still stated where the list writes it (CONSIST005)");
        assertEquals("0 at 4:65", ib("srun --export=NCCL_IB_DISABLE=1,NCCL_IB_DISABLE,NCCL_IB_DISABLE=0 python train.py\n"),
                "a later NAME=value sets it again");
    }

    @Test
    void quotesInsideAnEntryReachTheTasks() {
        // find_quote_token takes a pair off only around a whole entry: the comma inside the quotes does not cut, the quotes stay
        assertEquals("\"mlx5_0,mlx5_1\"", job("srun --export='ALL,NCCL_IB_HCA=\"mlx5_0,mlx5_1\"' python train.py\n")
                .env().get("NCCL_IB_HCA").value());
        assertEquals("mlx5_0,mlx5_1", job("srun --export='ALL,\"NCCL_IB_HCA=mlx5_0,mlx5_1\"' python train.py\n")
                .env().get("NCCL_IB_HCA").value(), "a pair around the whole entry is taken off");
    }

    @Test
    void theLastMpirunXOfANameBinds() {
        assertEquals("0 at 4:55", ib("mpirun -np 16 -x NCCL_IB_DISABLE=1 -x NCCL_IB_DISABLE=0 python train.py\n"));
    }
}
