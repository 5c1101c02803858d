package dev.gpulint.bind.adapt.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** What launch commands say: mpirun, torchrun, accelerate, Megatron flags, programs that pick their GPUs. */
class LaunchersTest {

    private static Launchers.Launch scan(String script) {
        return Launchers.scan(Shell.parse(ScalarText.detached("s", script), Map.of()));
    }

    @Test
    void mpirunRanksPerNodeAndVariables() {
        Launchers.Launch l = scan("/opt/openmpi/bin/mpirun --allow-run-as-root -np 16 --map-by ppr:8:node -mca btl tcp,self "
                + "-x NCCL_DEBUG=INFO -x LD_LIBRARY_PATH ./all_reduce_perf -g 1");
        assertEquals(16, Launchers.number(l.mpiRanks));
        assertEquals(8, Launchers.number(l.mpiPerNode));
        assertEquals("NCCL_DEBUG", l.env.get(0).name());
        assertEquals("INFO", l.env.get(0).value().text());
        assertEquals("LD_LIBRARY_PATH", l.forwarded.get(0).text());
        assertEquals(1, Launchers.number(l.ncclTestGpus));
        assertEquals(1, l.env.size(), "-mca's two values are not taken for variables or the program");
    }

    @Test
    void srunExportListsSetVariablesAndAValueThatMayGoOnPastACommaIsUnknown() {
        Launchers.Launch l = scan("srun -N 2 --container-image x.sqsh --export=ALL,NCCL_IB_HCA=mlx5_0,mlx5_1,HOME,NCCL_DEBUG=INFO "
                + "python train.py --export=NOT_SRUNS=1");
        assertEquals(2, l.env.size(), l.env.toString());
        assertEquals("NCCL_IB_HCA", l.env.get(0).name());
        assertEquals(false, l.env.get(0).value().known(), "Slurm may read mlx5_1 as part of the value");
        assertEquals("NCCL_DEBUG", l.env.get(1).name());
        assertEquals("INFO", l.env.get(1).value().text());
        assertEquals(true, l.env.get(1).value().known());
        assertEquals(1 + "srun -N 2 --container-image x.sqsh --export=ALL,NCCL_IB_HCA=mlx5_0,mlx5_1,HOME,".length(),
                l.env.get(1).nameSpan().startColumn());
        assertEquals("[]", l.forwarded.stream().map(Shell.Word::text).toList().toString(), "mlx5_1 and HOME may be the value's");
        assertEquals("[TERM]", scan("srun --export=TERM,NONE python t.py").forwarded.stream().map(Shell.Word::text).toList().toString());
        assertEquals(0, scan("srun --export=NONE python train.py").env.size());
    }

    @Test
    void torchrunAndMegatronFlags() {
        Launchers.Launch l = scan("python -m torch.distributed.run --nnodes=2 --nproc-per-node 8 pretrain_gpt.py "
                + "--tensor-model-parallel-size=4 --pipeline-model-parallel-size 2 --sequence-parallel --num-layers 24");
        assertEquals(2, Launchers.number(l.torchNodes));
        assertEquals(8, Launchers.number(l.torchPerNode));
        assertEquals("4", l.flags.get("--tensor-model-parallel-size").text());
        assertEquals("2", l.flags.get("--pipeline-model-parallel-size").text());
        assertEquals("true", l.flags.get("--sequence-parallel").text(), "a boolean flag takes no value");
        assertEquals("24", l.flags.get("--num-layers").text());
    }

    @Test
    void programsThatPickTheirGpus() {
        assertEquals(8, Launchers.number(scan("lmp -k on t 4 g 8 -sf kk -in in.lj").kokkosGpus));
        assertEquals(4, Launchers.number(scan("accelerate launch --num_processes 4 --num_machines 1 train.py").accelProcesses));
        assertNull(scan("lmp -k off -in in.lj").kokkosGpus);
    }

    @Test
    void unknownOrRangeValuesAreNoNumbers() {
        Launchers.Launch l = scan("torchrun --nnodes=1:4 --nproc_per_node=$GPUS train.py");
        assertEquals(-1, Launchers.number(l.torchNodes), "an elastic range is not one node count");
        assertEquals(-1, Launchers.number(l.torchPerNode));
    }
}
