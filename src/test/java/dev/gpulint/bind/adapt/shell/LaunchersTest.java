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
        assertEquals(1, Launchers.number(l.ncclTestGpus));
        assertEquals(1, l.env.size(), "-mca's two values are not taken for variables or the program");
    }

    @Test
    void srunExportListsAreCutAtEveryCommaAsSrunCutsThem() {
        Launchers.Launch l = scan("srun -N 2 --container-image x.sqsh --export=ALL,NCCL_IB_HCA=mlx5_0,mlx5_1,HOME,NCCL_DEBUG=INFO "
                + "python train.py --export=NOT_SRUNS=1");
        assertEquals(2, l.env.size(), l.env.toString());
        assertEquals("NCCL_IB_HCA", l.env.get(0).name());
        assertEquals("mlx5_0", l.env.get(0).value().text(), "srun's find_quote_token ends the entry at the comma");
        assertEquals(true, l.env.get(0).value().known());
        assertEquals(Launchers.Kind.SRUN_EXPORT, l.env.get(0).kind());
        assertEquals("NCCL_DEBUG", l.env.get(1).name());
        assertEquals("INFO", l.env.get(1).value().text());
        assertEquals(1 + "srun -N 2 --container-image x.sqsh --export=ALL,NCCL_IB_HCA=mlx5_0,mlx5_1,HOME,".length(),
                l.env.get(1).nameSpan().startColumn());
        assertEquals("[mlx5_1, HOME]", list("ALL,NCCL_IB_HCA=mlx5_0,mlx5_1,HOME,NCCL_DEBUG=INFO").passed().stream()
                .map(Shell.Word::text).toList().toString(), "entries without '=': names srun passes on from its caller's environment");
        assertEquals("[TERM]", list("TERM,NONE").passed().stream().map(Shell.Word::text).toList().toString());
        assertEquals(0, scan("srun --export=NONE python train.py").env.size());
    }

    private static SrunExport.ExportList list(String text) {
        return SrunExport.read(new Shell.Word(text, true, new dev.gpulint.core.Span("s", 1, 10, 1, 10 + text.length())));
    }

    @Test
    void aValueSrunCutsIsKeptWithTheRestItsTextHad() {
        SrunExport.ExportList e = list("ALL,NCCL_IB_HCA=mlx5_0,mlx5_1,HOME,NCCL_DEBUG=INFO");
        assertEquals(1, e.cut().size(), e.cut().toString());
        assertEquals("NCCL_IB_HCA", e.cut().get(0).set().name());
        assertEquals("mlx5_1", e.cut().get(0).rest().text(), "HOME is written as a variable's name: one srun passes on");
        assertEquals(10 + "ALL,NCCL_IB_HCA=mlx5_0,".length(), e.cut().get(0).rest().span().startColumn());
        assertEquals("[]", list("NCCL_IB_HCA=mlx5_0,ALL,NCCL_DEBUG=INFO").cut().toString(), "a keyword after a value cuts nothing");
        assertEquals("[]", list("NCCL_IB_HCA=mlx5_0,NCCL_DEBUG=INFO").cut().toString());
        assertEquals("mlx5_1,mlx5_2", list("NCCL_IB_HCA=mlx5_0,mlx5_1,mlx5_2").cut().get(0).rest().text(), "at the end of the list too");
        assertEquals("[]", list("ALL,NCCL_DEBUG=WARN,NCCL_IB_HCA").cut().toString(), "a name after a value is a name");
        // after a variable documented as a comma list of keywords, an upper-case piece is the value's rest
        SrunExport.ExportList k = list("ALL,NCCL_ALGO=RING,TREE,NCCL_PROTO=LL,LL128,SIMPLE,NCCL_DEBUG=INFO,HOME");
        assertEquals("[NCCL_ALGO TREE, NCCL_PROTO LL128,SIMPLE]",
                k.cut().stream().map(c -> c.set().name() + " " + c.rest().text()).toList().toString());
    }

    @Test
    void quotesInsideAnEntryStayInTheValue() {
        SrunExport.ExportList q = list("ALL,NCCL_IB_HCA=\"mlx5_0,mlx5_1\",\"NCCL_SOCKET_IFNAME=eth0,eth1\"");
        assertEquals("[NCCL_IB_HCA=\"mlx5_0,mlx5_1\"]", q.quoted().stream().map(e -> e.name() + "=" + e.value().text()).toList().toString(),
                "a pair around the whole entry is taken off; one inside it stays");
        assertEquals("[]", q.cut().toString());
    }

    @Test
    void theProxyVariablesWrittenInLowerCaseAreNamesNotAValuesRest() {
        // curl reads http_proxy in lower case only (and the others in either): a list passing them on is a list of names
        SrunExport.ExportList e = list("ALL,HF_HOME=/data/hf,http_proxy,https_proxy,no_proxy,ftp_proxy,all_proxy");
        assertEquals("[]", e.cut().toString());
        assertEquals("[http_proxy, https_proxy, no_proxy, ftp_proxy, all_proxy]",
                e.passed().stream().map(Shell.Word::text).toList().toString());
        // a value's rest after them is still its rest
        assertEquals("eth1", list("ALL,http_proxy,NCCL_SOCKET_IFNAME=eth0,eth1").cut().get(0).rest().text());
        assertEquals("mlx5_1", list("NCCL_IB_HCA=mlx5_0,mlx5_1,no_proxy").cut().get(0).rest().text(),
                "the rest ends at the proxy variable's name");
    }

    @Test
    void aCommaInsideQuotesThatReachSrunDoesNotCut() {
        // --export='"NCCL_IB_HCA=mlx5_0,mlx5_1"': srun sees the double quotes, keeps the comma and drops the quotes around the entry
        SrunExport.ExportList e = list("ALL,\"NCCL_IB_HCA=mlx5_0,mlx5_1\",NCCL_DEBUG=INFO");
        assertEquals("NCCL_IB_HCA=mlx5_0,mlx5_1 NCCL_DEBUG=INFO", e.sets().stream().map(s -> s.name() + "=" + s.value().text())
                .collect(java.util.stream.Collectors.joining(" ")));
        assertEquals("[]", e.cut().toString());
        // quotes around the value only stay in it, as srun passes them on
        assertEquals("'mlx5_0,mlx5_1'", list("NCCL_IB_HCA='mlx5_0,mlx5_1'").sets().get(0).value().text());
    }

    @Test
    void theLastMpirunXOfANameIsTheRanks() {
        Launchers.Launch l = scan("mpirun -np 16 -x NCCL_IB_DISABLE=1 -x NCCL_DEBUG=INFO -x NCCL_IB_DISABLE=0 ./train");
        assertEquals("NCCL_IB_DISABLE=0 NCCL_DEBUG=INFO", l.env.stream().map(s -> s.name() + "=" + s.value().text())
                .collect(java.util.stream.Collectors.joining(" ")), "Open MPI's -x overwrites any prior entry");
        assertEquals(Launchers.Kind.MPIRUN_X, l.env.get(0).kind());
        Launchers.Launch h = scan("mpiexec -n 8 -genv NCCL_DEBUG WARN -genv NCCL_DEBUG INFO ./train");
        assertEquals("[INFO]", h.env.stream().map(s -> s.value().text()).toList().toString(), "Hydra updates the entry of the name");
        Launchers.Launch mixed = scan("mpiexec -n 8 -genv NCCL_DEBUG WARN -env NCCL_DEBUG INFO ./train");
        assertEquals(1, mixed.env.size());
        assertEquals(false, mixed.env.get(0).value().known(), "-env and -genv fill two lists: which one the ranks get is not read");
        // a bare -x NAME passes mpirun's own value on over the earlier NAME=value only where mpirun's environment has NAME
        // (Open MPI 4 create_app, 5 PRRTE process_envar: getenv, else the prior entry stays): which, gpulint cannot tell
        Launchers.Launch bare = scan("mpirun -x NCCL_DEBUG=INFO -x NCCL_DEBUG ./train");
        assertEquals(1, bare.env.size(), bare.env.toString());
        assertEquals(false, bare.env.get(0).value().known(), "INFO stays when mpirun has no NCCL_DEBUG of its own");
        assertEquals(0, scan("mpirun -x NCCL_DEBUG ./train").env.size(), "a bare -x alone sets no value of the command's");
        Launchers.Launch two = scan("mpirun -x NCCL_DEBUG=WARN ./a\nmpirun -x NCCL_DEBUG=INFO ./b");
        assertEquals(2, two.env.size(), "each command keeps its own (the first launch binds)");
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
