package dev.gpulint.bind.adapt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.read.Readers;
import dev.gpulint.read.SourceFile;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.Specs;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Repeated #SBATCH options: sbatch reads the directives in order as one argument list, and each option's setter replaces the
 * value before it (SchedMD/slurm src/sbatch/opt.c _opt_batch_script; src/common/slurm_opt.c arg_set_*): the last wins, for
 * every option the binder reads.
 */
class SlurmDirectivesTest {

    private static Specs.Job job(String directives) {
        SourceFile f = SourceFile.of("train.sbatch", "#!/bin/bash\n" + directives + "srun python train.py --tensor-model-parallel-size 2\n");
        List<Specs.Job> jobs = Adapters.bind(List.of(new Adapters.Input(f, Readers.read(f).foreign()))).jobs();
        assertEquals(1, jobs.size(), directives);
        return jobs.get(0);
    }

    private static String at(Located<?> v) {
        return v == null ? null : v.value() + " at " + v.span().startLine() + ":" + v.span().startColumn();
    }

    @Test
    void theLastNodesWins() {
        assertEquals("4 at 4:17", at(job("#SBATCH --nodes=2\n#SBATCH --gpus-per-node=8\n#SBATCH --nodes=4\n").nodes()));
        assertEquals("4 at 3:11", at(job("#SBATCH -N 2 --gpus-per-node=8\n#SBATCH -N4\n").nodes()), "short forms, several on a line");
        assertNull(job("#SBATCH --nodes=2\n#SBATCH --gpus-per-node=8\n#SBATCH --nodes=$NODES\n").nodes(),
                "a later value sbatch reads as text replaces the number: unknown");
    }

    @Test
    void theLastGpuRequestWins() {
        Specs.Job g = job("#SBATCH --nodes=2\n#SBATCH --gpus-per-node=4\n#SBATCH --gpus-per-node=8\n");
        assertEquals("8 at 4:25", at(g.gpusPerNode()));
        assertEquals("#SBATCH --gpus-per-node", g.origin().gpusPerNodeWhere());
        Specs.Job r = job("#SBATCH --nodes=2\n#SBATCH --gres=gpu:4\n#SBATCH --gres=gpu:h100:8\n");
        assertEquals("8 at 4:25", at(r.gpusPerNode()));
        assertEquals("#SBATCH --gres=gpu:h100:8", r.origin().gpusPerNodeWhere());
        Specs.Job m = job("#SBATCH --nodes=2\n#SBATCH --gres=gpu:4\n#SBATCH --gpus-per-node=8\n");
        assertEquals("8 at 4:25", at(m.gpusPerNode()), "the later of --gres and --gpus-per-node");
        Specs.Job n = job("#SBATCH --nodes=2\n#SBATCH --gpus-per-node=8\n#SBATCH --gres=gpu:4\n");
        assertEquals("4 at 4:20", at(n.gpusPerNode()));
        Specs.Job none = job("#SBATCH --nodes=2\n#SBATCH --gres=gpu:8\n#SBATCH --gres=nvme:1\n");
        assertNull(none.gpusPerNode(), "a later --gres without a GPU replaces the GPU request");
        Specs.Job w = job("#SBATCH --nodes=2\n#SBATCH --gpus=8\n#SBATCH --gpus=16\n");
        assertTrue(w.origin().stated().stream().anyMatch(s -> s.quantity().equals("world") && s.value().equals("16")
                && s.where().equals("#SBATCH --gpus") && s.span().startLine() == 4), w.origin().stated().toString());
        assertEquals("8 at 4:16", at(w.gpusPerNode()), "--gpus ÷ --nodes of the last --gpus");
    }

    @Test
    void theLastTasksPerNodeWins() {
        Specs.Job j = job("#SBATCH --nodes=2\n#SBATCH --gpus-per-node=8\n#SBATCH --ntasks-per-node=1\n#SBATCH --ntasks-per-node=8\n");
        assertTrue(j.origin().stated().stream().anyMatch(s -> s.quantity().equals("per_node") && s.value().equals("8")
                && s.where().equals("#SBATCH --ntasks-per-node (one rank per task)") && s.span().startLine() == 5),
                j.origin().stated().toString());
        assertTrue(j.origin().stated().stream().noneMatch(s -> s.quantity().equals("per_node") && s.value().equals("1")),
                j.origin().stated().toString());
    }

    @Test
    void theLastExportAndJobNameWin() {
        Specs.Job j = job("#SBATCH --nodes=2\n#SBATCH --gpus-per-node=8\n#SBATCH --export=NCCL_IB_DISABLE=1\n"
                + "#SBATCH --export=ALL,NCCL_IB_DISABLE=0\n#SBATCH --job-name=first\n#SBATCH -J second\n");
        assertEquals("0 at 5:38", at(j.env().get("NCCL_IB_DISABLE")), "the steps inherit the last --export");
        assertEquals(7, j.name().span().startLine(), "the job's name is placed at the last --job-name / -J");
    }
}
