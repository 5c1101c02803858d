package dev.gpulint.bind.adapt;

import dev.gpulint.spec.Model;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.core.Span;
import dev.gpulint.read.Readers;
import dev.gpulint.read.SourceFile;
import dev.gpulint.spec.Specs;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Slurm and bash launch scripts, and torchtitan TOML, bind to job facts with each value's span in the file. */
class LaunchScriptAdapterTest {

    private static Model bind(String... nameAndText) {
        List<Adapters.Input> in = new ArrayList<>();
        for (int i = 0; i < nameAndText.length; i += 2) {
            SourceFile f = SourceFile.of(nameAndText[i], nameAndText[i + 1]);
            in.add(new Adapters.Input(f, Readers.read(f).foreign()));
        }
        return Adapters.bind(in);
    }

    private static String stated(Specs.Job j) {
        StringBuilder sb = new StringBuilder();
        for (Specs.Stated s : j.origin().stated()) {
            sb.append(s.quantity()).append('=').append(s.value()).append(" (").append(s.where()).append(", ").append(s.kind())
              .append(s.span() == null ? "" : " " + s.span().file() + ":" + s.span().startLine() + ":" + s.span().startColumn())
              .append(")\n");
        }
        return sb.toString().lines().sorted().map(l -> l + "\n").reduce("", String::concat);   // Megatron's flags come in no set order
    }

    @Test
    void sbatchDirectivesArraysAndTheLaunchLine() {
        Model b = bind("run.sbatch", """
                #!/bin/bash
                #SBATCH --job-name=gpt
                #SBATCH -N2
                #SBATCH --ntasks-per-node 1   # one torchrun per node
                #SBATCH --gres=gpu:h100:8(S:0-1),mps:100
                #SBATCH --exclusive
                export NCCL_IB_HCA=mlx5_0,mlx5_1
                GPUS_PER_NODE=8
                NNODES=$SLURM_NNODES
                WORLD_SIZE=$((GPUS_PER_NODE * NNODES))
                MODEL_ARGS=(
                    --tensor-model-parallel-size 4
                    --pipeline-model-parallel-size $((WORLD_SIZE / 8))
                )
                #SBATCH --nodes=64
                srun torchrun --nnodes $NNODES --nproc_per_node $GPUS_PER_NODE pretrain_gpt.py "${MODEL_ARGS[@]}" --deepspeed_config ds.json
                """);
        assertEquals(1, b.jobs().size());
        Specs.Job j = b.jobs().get(0);
        assertEquals("launch script", j.origin().format());
        assertEquals(2L, j.nodes().value(), "-N2; a directive after the first command is not one");
        assertEquals(new Span("run.sbatch", 3, 11, 3, 12), j.nodes().span());
        assertEquals(8L, j.gpusPerNode().value());
        assertEquals(new Span("run.sbatch", 5, 25, 5, 26), j.gpusPerNode().span());
        assertEquals("#SBATCH --gres=gpu:h100:8(S:0-1)", j.origin().gpusPerNodeWhere());
        assertEquals(4L, j.parallelism().tp().value());
        assertEquals(12, j.parallelism().tp().span().startLine(), "the flag's value where the array writes it");
        assertEquals(2L, j.parallelism().pp().value(), "$((WORLD_SIZE / 8)) with WORLD_SIZE from NNODES=$SLURM_NNODES");
        assertEquals("mlx5_0,mlx5_1", j.env().get("NCCL_IB_HCA").value());
        assertEquals("ds.json", j.origin().deepspeedConfig().value());
        assertEquals("""
                env:NCCL_IB_HCA=mlx5_0,mlx5_1 (export, CONFIG run.sbatch:7:20)
                nodes=2 (#SBATCH --nodes, RESOURCE run.sbatch:3:11)
                nodes=2 (torchrun --nnodes, LAUNCHER run.sbatch:16:24)
                per_node=8 (#SBATCH --gres=gpu:h100:8(S:0-1), RESOURCE run.sbatch:5:25)
                per_node=8 (torchrun --nproc_per_node, LAUNCHER run.sbatch:16:49)
                pp=2 (the launch command --pipeline-model-parallel-size, CONFIG run.sbatch:13:36)
                tp=4 (the launch command --tensor-model-parallel-size, CONFIG run.sbatch:12:34)
                world=16 (#SBATCH --nodes × --gres=gpu:h100:8(S:0-1), RESOURCE run.sbatch:3:11)
                """, stated(j));
    }

    @Test
    void srunPythonHydraOverridesAndScriptsWithoutALaunch() {
        Specs.Job j = bind("nemo.sh", """
                #!/bin/bash
                #SBATCH --nodes 4
                #SBATCH --gpus-per-node=8
                #SBATCH --ntasks-per-node=8
                srun --mpi=pmix python megatron_gpt_pretraining.py trainer.num_nodes=4 trainer.devices=8 \\
                    ++model.tensor_model_parallel_size=4 model.pipeline_model_parallel_size=2
                """).jobs().get(0);
        assertEquals(4L, j.parallelism().tp().value());
        assertEquals(new Span("nemo.sh", 6, 40, 6, 41), j.parallelism().tp().span());
        assertEquals(2L, j.parallelism().pp().value());
        assertTrue(stated(j).contains("per_node=8 (#SBATCH --ntasks-per-node (one rank per task), LAUNCHER nemo.sh:4:27)"), stated(j));
        assertTrue(stated(j).contains("nodes=4 (the launch command trainer.num_nodes, CONFIG nemo.sh:5:70)"), stated(j));
        Model none = bind("tools.sh", "#!/bin/bash\nset -e\npython -m pip install -r requirements.txt\nsrun hostname\n",
                "ci", "#!/bin/sh\necho done\n");
        assertTrue(none.jobs().isEmpty() && none.files().isEmpty() && none.findings().isEmpty(), "skipped quietly");
    }

    @Test
    void torchtitanDegreesWithTheRestAndALinkedScript() {
        String toml = """
                [model]
                name = "llama3"
                flavor = "70B"

                [training]
                local_batch_size = 1
                global_batch_size = 64
                seq_len = 8192

                [parallelism]
                data_parallel_replicate_degree = 2
                data_parallel_shard_degree = -1
                tensor_parallel_degree = 8
                pipeline_parallel_degree = 2
                """;
        Specs.Job alone = bind("llama3_70b.toml", toml).jobs().get(0);
        assertEquals("torchtitan", alone.origin().format());
        assertNull(alone.parallelism().dp(), "-1: the rest of the GPUs, derived once the GPU count is known");
        assertEquals(8L, alone.parallelism().tp().value());
        assertEquals(new Span("llama3_70b.toml", 13, 26, 13, 27), alone.parallelism().tp().span());
        assertEquals(1L, alone.batch().microBatchSize().value());
        assertEquals(64L, alone.batch().globalBatchSize().value());
        assertEquals(8192L, alone.model().seqLength().value());
        assertNull(alone.nodes());
        Model b = bind("llama3_70b.toml", toml, "train.sh", """
                #!/bin/bash
                NGPU=${NGPU:-8}
                torchrun --nnodes=4 --nproc_per_node=8 -m torchtitan.train --job.config_file llama3_70b.toml
                """);
        Specs.Job linked = b.jobs().get(0);
        assertEquals(4L, linked.nodes().value(), "the script's GPU count is the configuration's");
        assertEquals("train.sh", linked.nodes().span().file());
        assertEquals("torchrun --nproc_per_node (launch script train.sh)", linked.origin().gpusPerNodeWhere());
    }

    @Test
    void aScriptRunThroughSrunIsPartOfItsCallersJob() {
        Model b = bind("job.sbatch", "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --gpus=16\nsrun bash scripts/train.sh\n",
                "scripts/train.sh", "#!/bin/bash\ntorchrun --nnodes 2 --nproc_per_node 8 train.py --tensor-model-parallel-size 2\n");
        assertEquals(1, b.jobs().size(), "one job: the callee is merged into its caller");
        Specs.Job j = b.jobs().get(0);
        assertEquals("job.sbatch", j.file());
        assertEquals(2L, j.parallelism().tp().value());
        assertEquals("scripts/train.sh", j.parallelism().tp().span().file());
        assertEquals(8L, j.gpusPerNode().value(), "no GPUs per node in the allocation: the callee's launcher");
        assertTrue(stated(j).contains("world=16 (#SBATCH --gpus, RESOURCE job.sbatch:3:16)"), stated(j));
        assertTrue(stated(j).contains("nodes=2 (torchrun --nnodes in scripts/train.sh, LAUNCHER scripts/train.sh:2:19)"), stated(j));
    }

    @Test
    void aLoneCarriageReturnEndsALineAsInEveryReader() {
        // found by the whole-pipeline fuzz: a \r inside an array put the values after it one line too high
        Model b = bind("train.sh", "#!/bin/bash\nARGS=(\n \r  --nnodes 1\n    --tensor-model-parallel-size 4\n)\n"
                + "torchrun --nproc_per_node 8 pretrain_gpt.py \"${ARGS[@]}\"\n");
        Specs.Job j = b.jobs().get(0);
        assertEquals(4L, j.parallelism().tp().value());
        assertEquals(5, j.parallelism().tp().span().startLine());
        assertEquals(34, j.parallelism().tp().span().startColumn());
    }

    @Test
    void everyStepOfACallerIsLinkedWithTheEnvironmentAtItsCallUpToTheBound() {
        // srun bash s1.sh ... srun bash s20.sh after export NVTE_FUSED_ATTN=0: s1 is the caller's launch; s2..s16 keep their
        // jobs and start with the caller's 0; past ScriptLinks.MAX_CALLS (16 calls) a step links nothing
        List<String> files = new ArrayList<>();
        StringBuilder caller = new StringBuilder("#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --gpus-per-node=8\nexport NVTE_FUSED_ATTN=0\n");
        for (int i = 1; i <= 20; i++) caller.append("srun bash s").append(i).append(".sh\n");
        files.add("job.sbatch");
        files.add(caller.toString());
        for (int i = 1; i <= 20; i++) {
            files.add("s" + i + ".sh");
            files.add("#!/bin/bash\ntorchrun --nproc-per-node 8 --nnodes 2 pretrain_gpt.py --num-layers 32 --hidden-size 4096"
                    + " --num-attention-heads 32 --attention-backend auto\n");
        }
        Model b = bind(files.toArray(String[]::new));
        assertEquals(20, b.jobs().size(), "s1 merged into the caller; s2..s20 jobs of their own");
        for (Specs.Job j : b.jobs()) {
            int step = j.file().equals("job.sbatch") ? 1 : Integer.parseInt(j.file().replaceAll("[^0-9]", ""));
            var launches = j.model().attention().launches();
            assertEquals(1, launches.size(), j.file());
            var fused = launches.get(0).known().get("NVTE_FUSED_ATTN");
            if (step <= ScriptLinks.MAX_CALLS) {
                assertEquals("0", fused == null ? null : fused.value(), j.file() + ": the caller's export at its call");
                assertEquals("job.sbatch", fused.span().file());
            } else {
                assertNull(fused, j.file() + ": past the bound, not linked");
            }
        }
    }

    @Test
    @dev.gpulint.testing.CpuLimit(seconds = 20)
    void aHundredThousandCallsOfOneScriptStayLinear() {
        StringBuilder caller = new StringBuilder("#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --gpus-per-node=8\nexport NVTE_FUSED_ATTN=0\n");
        for (int i = 0; i < 100_000; i++) caller.append("srun --export=NVTE_FUSED_ATTN bash s.sh\n");
        Model b = bind("job.sbatch", caller.toString(), "s.sh", "#!/bin/bash\ntorchrun --nproc-per-node 8 --nnodes 2"
                + " pretrain_gpt.py --num-layers 32 --hidden-size 4096 --num-attention-heads 32 --attention-backend auto\n");
        assertEquals(1, b.jobs().size());
        assertEquals("0", b.jobs().get(0).model().attention().launches().get(0).known().get("NVTE_FUSED_ATTN").value());
    }
}
