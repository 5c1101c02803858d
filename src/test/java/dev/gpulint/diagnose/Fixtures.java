package dev.gpulint.diagnose;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * A two-node DGX H100 job and its captures, in the shapes the tools print (nvidia-smi topo -m / nvlink -s, ibstat,
 * nccl-tests' all_reduce_perf, an NCCL_DEBUG=INFO log), each healthy unless a case breaks one thing.
 */
public final class Fixtures {
    private Fixtures() {}

    /** Two nodes of 8 × H100 with 8 × 400 Gb/s NICs; {@code fabric} infiniband or roce; {@code extra} more fabric keys. */
    public static String cluster(String protocol, String fabricExtra, boolean gdr) {
        return """
                kind: cluster
                name: pod
                fabric:
                  type: %s
                  topology: rail-optimized
                %snode_groups:
                  - name: dgx
                    count: 2
                    gpu: { model: H100-SXM5-80GB, count: 8 }
                    nvlink: { switch: true }
                    pcie: { generation: 5 }
                    nics:
                      - { model: ConnectX-7, count: 8, speed: 400 Gb/s, protocol: %s, gpudirect_rdma: %s }
                """.formatted(protocol, fabricExtra, protocol, gdr);
    }

    /** A 13B-class GPT, TP 8 inside each node, DP 2 across the two. */
    public static final String JOB = """
            kind: training_job
            name: gpt13b
            cluster: pod
            node_group: dgx
            nodes: 2
            gpus_per_node: 8
            model: { dtype: bf16, layers: 40, hidden_size: 5120, attention_heads: 40, seq_length: 4096, vocab_size: 32000 }
            parallelism: { tp: 8, pp: 1, dp: 2 }
            batch: { micro_batch_size: 1, global_batch_size: 64 }
            """;

    /** nvidia-smi nvlink -s of 8 H100s, 18 links each; GPU {@code downGpu}'s first {@code down} links inactive. */
    public static String nvlinks(int downGpu, int down) {
        StringBuilder s = new StringBuilder();
        for (int g = 0; g < 8; g++) {
            s.append(String.format(Locale.ROOT, "GPU %d: NVIDIA H100 80GB HBM3 (UUID: GPU-00000000-1c2d-4e5f-8a9b-0c1d2e3f4a%02d)%n", g, g));
            for (int l = 0; l < 18; l++) {
                s.append(String.format(Locale.ROOT, "\t Link %d: %s%n", l, g == downGpu && l < down ? "<inactive>" : "26.562 GB/s"));
            }
        }
        return s.toString();
    }

    /** ibstat of 8 single-port ConnectX-7s at {@code rate} Gb/s on link layer {@code layer}. */
    public static String ibstat(int rate, String layer) {
        StringBuilder s = new StringBuilder();
        for (int a = 0; a < 8; a++) {
            s.append(String.format(Locale.ROOT, """
                    CA 'mlx5_%d'
                    \tCA type: MT4129
                    \tNumber of ports: 1
                    \tFirmware version: 28.39.1002
                    \tHardware version: 0
                    \tNode GUID: 0x946dae03000000%02d
                    \tSystem image GUID: 0x946dae03000000%02d
                    \tPort 1:
                    \t\tState: Active
                    \t\tPhysical state: LinkUp
                    \t\tRate: %d
                    \t\tBase lid: %d
                    \t\tLMC: 0
                    \t\tSM lid: 1
                    \t\tCapability mask: 0xa651e848
                    \t\tPort GUID: 0x946dae03000000%02d
                    \t\tLink layer: %s
                    """, a, a, a, rate, 10 + a, a, layer));
        }
        return s.toString();
    }

    /**
     * nvidia-smi topo -m of a DGX H100: each GPU beside its own NIC (PIX) under the same socket, or with
     * {@code crossed} every GPU's NIC behind the other socket (SYS).
     */
    public static String topo(boolean crossed) {
        StringBuilder s = new StringBuilder("\tGPU0\tGPU1\tGPU2\tGPU3\tGPU4\tGPU5\tGPU6\tGPU7\tNIC0\tNIC1\tNIC2\tNIC3\tNIC4\tNIC5\tNIC6\tNIC7\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID\n");
        for (int g = 0; g < 8; g++) {
            s.append("GPU").append(g);
            for (int o = 0; o < 8; o++) s.append('\t').append(o == g ? " X " : "NV18");
            for (int n = 0; n < 8; n++) {
                int nic = crossed ? (n + 4) % 8 : n;                 // crossed: NIC n sits on the other socket's slot
                boolean sameSocket = (g < 4) == (nic < 4);
                s.append('\t').append(nic == g ? (crossed ? "SYS" : "PIX") : crossed ? "SYS" : sameSocket ? "NODE" : "SYS");
            }
            s.append('\t').append(g < 4 ? "0-47,96-143\t0\t\tN/A" : "48-95,144-191\t1\t\tN/A").append('\n');
        }
        for (int n = 0; n < 8; n++) {
            s.append("NIC").append(n);
            for (int g = 0; g < 8; g++) s.append('\t').append(crossed ? "SYS" : n == g ? "PIX" : (g < 4) == (n < 4) ? "NODE" : "SYS");
            for (int o = 0; o < 8; o++) s.append('\t').append(o == n ? " X " : (o < 4) == (n < 4) ? "NODE" : "SYS");
            s.append('\n');
        }
        s.append("""

                Legend:

                  X    = Self
                  SYS  = Connection traversing PCIe as well as the SMP interconnect between NUMA nodes (e.g., QPI/UPI)
                  NODE = Connection traversing PCIe as well as the interconnect between PCIe Host Bridges within a NUMA node
                  PHB  = Connection traversing PCIe as well as a PCIe Host Bridge (typically the CPU)
                  PXB  = Connection traversing multiple PCIe bridges (without traversing the PCIe Host Bridge)
                  PIX  = Connection traversing at most a single PCIe bridge
                  NV#  = Connection traversing a bonded set of # NVLinks

                NIC Legend:

                """);
        for (int n = 0; n < 8; n++) s.append("  NIC").append(n).append(": mlx5_").append(n).append('\n');
        return s.toString();
    }

    /** An NCCL_DEBUG=INFO log of the job's 16 ranks: over IB verbs (with or without GPUDirect RDMA) or over sockets; an optional WARN. */
    public static String ncclLog(String net, boolean gdr, String warn) {
        StringBuilder s = new StringBuilder();
        s.append("dgx-01:4100:4100 [0] NCCL INFO Bootstrap : Using eth0:10.1.0.11<0>\n");
        s.append("dgx-01:4100:4100 [0] NCCL INFO NCCL version 2.21.5+cuda12.4\n");
        if (net.equals("IB")) {
            s.append("dgx-01:4100:4180 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [2]mlx5_2:1/IB [3]mlx5_3:1/IB [4]mlx5_4:1/IB"
                    + " [5]mlx5_5:1/IB [6]mlx5_6:1/IB [7]mlx5_7:1/IB [RO]; OOB eth0:10.1.0.11<0>\n");
            s.append("dgx-01:4100:4180 [0] NCCL INFO Using network IB\n");
        } else {
            s.append("dgx-01:4100:4180 [0] NCCL INFO NET/IB : No device found.\n");
            s.append("dgx-01:4100:4180 [0] NCCL INFO NET/Socket : Using [0]eth0:10.1.0.11<0>\n");
            s.append("dgx-01:4100:4180 [0] NCCL INFO Using network Socket\n");
        }
        s.append("dgx-01:4100:4180 [0] NCCL INFO comm 0x55d0c3a0 rank 0 nRanks 16 nNodes 2 localRanks 8 localRank 0 MNNVL 0\n");
        s.append("dgx-01:4100:4180 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM/read\n");
        String via = net.equals("IB") ? "NET/IB/0" + (gdr ? "/GDRDMA" : "") : "NET/Socket/0";
        s.append("dgx-01:4100:4180 [0] NCCL INFO Channel 00/0 : 15[7] -> 0[0] [receive] via ").append(via).append('\n');
        s.append("dgx-01:4100:4180 [0] NCCL INFO Channel 00/0 : 0[0] -> 8[0] [send] via ").append(via).append('\n');
        if (warn != null) s.append("dgx-01:4100:4190 [0] NCCL WARN ").append(warn).append('\n');
        s.append("dgx-01:4100:4180 [0] NCCL INFO comm 0x55d0c3a0 rank 0 nranks 16 cudaDev 0 nvmlDev 0 busId 18000 commId 0x9c2e1f0a4d7b3e21 - Init COMPLETE\n");
        return s.toString();
    }

    /** all_reduce_perf over the two nodes' 16 GPUs, its bus bandwidth rising to {@code peak} GB/s at 8 GiB. */
    public static String allReduce(double peak) {
        StringBuilder s = new StringBuilder("# nThread 1 nGpus 1 minBytes 1048576 maxBytes 8589934592 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0\n#\n# Using devices\n");
        String[] bus = {"0x18", "0x2a", "0x3a", "0x5d", "0x9a", "0xab", "0xba", "0xdb"};
        for (int r = 0; r < 16; r++) {
            s.append(String.format(Locale.ROOT, "#  Rank %2d Group  0 Pid %6d on     dgx-%02d device  %d [%s] NVIDIA H100 80GB HBM3%n",
                    r, 4100 + r, r / 8 + 1, r % 8, bus[r % 8]));
        }
        s.append("#\n#                                                              out-of-place                       in-place          \n");
        s.append("#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n");
        s.append("#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)       \n");
        double sum = 0;
        int rows = 0;
        for (long b = 1L << 27; b <= 1L << 33; b <<= 1) {
            double busbw = peak * Math.min(1, 0.4 + 0.1 * rows);
            double algbw = busbw * 16 / 30;
            double us = b / (algbw * 1e3);
            s.append(String.format(Locale.ROOT, "%12d  %12d     float     sum      -1  %8.1f  %6.2f  %6.2f      0  %8.1f  %6.2f  %6.2f      0%n",
                    b, b / 4, us, algbw, busbw, us * 1.01, algbw / 1.01, busbw / 1.01));
            sum += busbw;
            rows++;
        }
        s.append("# Out of bounds values : 0 OK\n");
        s.append(String.format(Locale.ROOT, "# Avg bus bandwidth    : %.4f %n#%n", sum / rows));
        return s.toString();
    }

    /** The nvidia-smi table of 8 H100s (driver 550), GPU g at {@code util[g]} percent. */
    public static String smiTable(int... util) {
        StringBuilder s = new StringBuilder("""
                Tue Mar  4 09:12:44 2025
                +-----------------------------------------------------------------------------------------+
                | NVIDIA-SMI 550.90.07              Driver Version: 550.90.07      CUDA Version: 12.4     |
                |-----------------------------------------+------------------------+----------------------+
                | GPU  Name                 Persistence-M | Bus-Id          Disp.A | Volatile Uncorr. ECC |
                | Fan  Temp   Perf          Pwr:Usage/Cap |           Memory-Usage | GPU-Util  Compute M. |
                |                                         |                        |               MIG M. |
                |=========================================+========================+======================|
                """);
        String[] bus = {"19", "3B", "4C", "5D", "9B", "BB", "CB", "DB"};
        for (int g = 0; g < 8; g++) {
            s.append(String.format(Locale.ROOT, "|   %d  NVIDIA H100 80GB HBM3          On  |   00000000:%s:00.0 Off |                    0 |%n", g, bus[g]));
            s.append(String.format(Locale.ROOT, "| N/A   31C    P0            %3dW /  700W |   70212MiB /  81559MiB |    %3d%%      Default |%n",
                    100 + util[g] * 5, util[g]));
            s.append("|                                         |                        |             Disabled |\n");
            s.append("+-----------------------------------------+------------------------+----------------------+\n");
        }
        return s.toString();
    }

    /** A project: the cluster and the job, and each capture as {@code evidence/NAME}. */
    public static Path project(Path dir, String cluster, String... captures) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("cluster.yaml"), cluster);
        Files.writeString(dir.resolve("job.yaml"), JOB);
        Files.createDirectories(dir.resolve("evidence"));
        for (int i = 0; i + 1 < captures.length; i += 2) Files.writeString(dir.resolve("evidence").resolve(captures[i]), captures[i + 1]);
        return dir;
    }

    /** The healthy captures: every link up at its rate, NCCL over IB with GPUDirect RDMA, nccl-tests near line rate. */
    public static String[] healthy() {
        return new String[] {"dgx-01.nvlink-s.txt", nvlinks(-1, 0), "dgx-01.ibstat.txt", ibstat(400, "InfiniBand"),
                "dgx-01.topo-m.txt", topo(false), "train.nccl.log", ncclLog("IB", true, null), "burnin.all_reduce_perf.txt", allReduce(360)};
    }

    /** The healthy captures with capture {@code name} replaced by {@code text}. */
    public static String[] healthyBut(String name, String text) {
        String[] h = healthy();
        for (int i = 0; i < h.length; i += 2) if (h[i].equals(name)) h[i + 1] = text;
        return h;
    }
}
