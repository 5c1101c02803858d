package dev.gpulint.read.evidence;

import dev.gpulint.core.Span;
import java.util.List;

/**
 * What a machine reported, read from a captured tool output (docs/evidence.md): one record per
 * file, every value with the span of the text it came from. Records hold what the file says, in
 * its own terms; what that means for a cluster is the derive stage's business.
 */
public sealed interface Evidence permits Evidence.Topology, Evidence.NvlinkStatus, Evidence.SmiQuery, Evidence.SmiTable,
        Evidence.IbPorts, Evidence.NcclTests, Evidence.NcclLog, Evidence.TrainingLog, Evidence.GpuSamples, Evidence.DcgmNvlinkStatus,
        Evidence.DcgmDiag {

    /** The file's display path. */
    String file();

    /** The tool whose output it is, as a person would name it ("nvidia-smi topo -m"). */
    Kind kind();

    /** The kinds of evidence gpulint reads, each with the tool command that prints it. */
    enum Kind {
        TOPOLOGY("nvidia-smi topo -m", "the GPU/NIC matrix of nvidia-smi topo -m (a header row GPU0 GPU1 ... CPU Affinity, one row per device)"),
        NVLINK("nvidia-smi nvlink -s", "nvidia-smi nvlink -s (a 'GPU n: ...' line, then 'Link n: <speed> GB/s' or 'Link n: <inactive>' lines)"),
        DCGMI_NVLINK("dcgmi nvlink --link-status", "dcgmi nvlink --link-status ('GPUs:', then per GPU a 'gpuId n:' line and a line of link states 'U U D X _ ...')"),
        DCGMI_DIAG("dcgmi diag", "dcgmi diag's result table ('| Diagnostic | Result |', then a row per test: '| PCIe | Pass - All |', '| Memory Bandwidth | Fail - GPU: 3 |')"),
        SMI_QUERY("nvidia-smi -q", "nvidia-smi -q ('Attached GPUs : n', then 'Product Name : ...' per GPU)"),
        SMI_TABLE("nvidia-smi", "the nvidia-smi table ('| NVIDIA-SMI ... Driver Version: ...', then a row '|   0  NVIDIA H100 80GB HBM3  On  | 00000000:18:00.0 Off | ...' per GPU)"),
        IBSTAT("ibstat", "ibstat ('CA 'mlx5_0'', then per port 'State:', 'Physical state:', 'Rate:' and 'Link layer:' lines)"),
        IBV_DEVINFO("ibv_devinfo", "ibv_devinfo ('hca_id:', then per port 'state:', 'active_speed:', 'active_width:' and 'link_layer:' lines)"),
        IBSTATUS("ibstatus", "ibstatus ('Infiniband device 'mlx5_0' port 1 status:', then 'state: 4: ACTIVE', 'phys state: 5: LinkUp', 'rate: 400 Gb/sec (4X NDR)' and 'link_layer: InfiniBand' lines)"),
        NCCL_TESTS("nccl-tests", "nccl-tests output (a '# nThread ...' header, '#  Rank ...' device lines, the size table and '# Avg bus bandwidth')"),
        NCCL_LOG("NCCL_DEBUG=INFO log", "an NCCL_DEBUG=INFO log ('host:pid:tid [dev] NCCL INFO ...' lines)"),
        TRAINING_LOG("training log", "a training log's step lines (Megatron-LM ' iteration  10/ 100 | ... elapsed time per iteration (ms): ...', torchtitan 'step: 10  loss: ...  tps: ...', NeMo 'train_step_timing in s=...', composer, DeepSpeed)"),
        SMI_DMON("nvidia-smi dmon", "nvidia-smi dmon (a '# gpu   pwr  gtemp ...' header, a '# Idx  W  C ...' units line, one row per GPU per sample)"),
        SMI_CSV("nvidia-smi --query-gpu --format=csv", "nvidia-smi --query-gpu=...  --format=csv (a header of the queried fields, e.g. 'index, utilization.gpu [%], clocks.sm [MHz]', one row per GPU per sample)"),
        DCGM_METRICS("dcgm-exporter", "dcgm-exporter metrics in Prometheus text format ('# HELP DCGM_FI_DEV_GPU_UTIL ...', 'DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",...} 87')");

        private final String tool, shape;

        Kind(String tool, String shape) { this.tool = tool; this.shape = shape; }

        /** The command whose output this is. */
        public String tool() { return tool; }

        /** What a file of this kind looks like, for messages about one that does not. */
        public String shape() { return shape; }
    }

    /** A word of the file and where it is written. */
    record Word(String text, Span span) {}

    /**
     * The matrix of nvidia-smi topo -m: {@code devices} in header order (GPUs first, then NICs),
     * {@code cells} row-major ({@code devices.size()} squared; a cell missing from a short row is
     * null), and the NIC legend's device names by NIC label (NIC0 → mlx5_0).
     */
    record Topology(String file, List<Device> devices, List<Word> cells, java.util.Map<String, String> nicNames) implements Evidence {
        public Kind kind() { return Kind.TOPOLOGY; }

        /** The cell of row {@code r}, column {@code c}; null when the row is short. */
        public Word cell(int r, int c) { return cells.get(r * devices.size() + c); }
    }

    /** A device of the matrix: its label, whether it is a GPU, where its row starts, and its CPU affinity ("" for none). */
    record Device(String name, boolean gpu, Span span, String cpuAffinity, String numaAffinity) {}

    /** nvidia-smi nvlink -s: per GPU its links, each active with a speed (GB/s) or inactive. */
    record NvlinkStatus(String file, List<NvlinkGpu> gpus) implements Evidence {
        public Kind kind() { return Kind.NVLINK; }
    }

    /** One GPU of nvidia-smi nvlink -s: its index, its name as printed, and its links. */
    record NvlinkGpu(int index, String name, Span span, List<NvlinkLink> links) {}

    /** One link: its number, its speed in GB/s (0 when inactive), whether it is inactive. */
    record NvlinkLink(int link, double gigabytesPerSecond, boolean inactive, Span span) {}

    /**
     * dcgmi nvlink --link-status: per GPU ({@code gpuId n}) its links, and per NVSwitch ({@code physicalId n}) its
     * ports, in the order printed: Up ({@code U}) is active, Down ({@code D}) and Disabled ({@code X}) are inactive, each
     * link's span its letter; Not Supported ({@code _}) is no link. dcgmi prints no speed (0) and no GPU name ("").
     * {@code disabled} holds the spans of the inactive links printed {@code X}; the other inactive ones are {@code D}.
     */
    record DcgmNvlinkStatus(String file, List<NvlinkGpu> gpus, List<NvlinkGpu> switches, java.util.Set<Span> disabled) implements Evidence {
        public Kind kind() { return Kind.DCGMI_NVLINK; }
    }

    /** dcgmi diag's result table: every result row, in order. */
    record DcgmDiag(String file, List<DiagTest> tests) implements Evidence {
        public Kind kind() { return Kind.DCGMI_DIAG; }
    }

    /**
     * A result of a dcgmi diag test: its category as the table heads it (Deployment, Integration, Hardware, Stress; ""
     * before any), its name (PCIe, Memory Bandwidth, Diagnostic), the result word (Pass, Fail, Skip, Warn) where it is
     * printed, the GPUs it names after the dash ("All", "GPU: 3", "GPUs: 0, 1"; "" when none), and the Warning or Info
     * rows printed under it ("" when none). A test with results for several GPU sets has a result per row.
     */
    record DiagTest(String category, String name, Word result, String gpus, String reason, Span span) {}

    /** nvidia-smi -q: the attached-GPU count (-1 when not printed) and each GPU's product name. */
    record SmiQuery(String file, int attached, Span attachedSpan, List<Word> productNames) implements Evidence {
        public Kind kind() { return Kind.SMI_QUERY; }
    }

    /**
     * The plain nvidia-smi table: the driver and the CUDA version it supports (null when not printed), each GPU's row,
     * and the processes on the GPUs.
     */
    record SmiTable(String file, Word driver, Word cuda, List<SmiGpu> gpus, List<SmiProcess> processes) implements Evidence {
        public Kind kind() { return Kind.SMI_TABLE; }
    }

    /**
     * A GPU of the nvidia-smi table: its index, name as printed (drivers before 535 cut a long one: "Tesla P100-PCIE..."),
     * PCI bus id, memory used and total in MiB and utilisation in percent (-1 when not printed), and where its row is.
     */
    record SmiGpu(int index, Word name, String busId, long memoryUsedMiB, long memoryTotalMiB, int utilizationPercent, Span span) {}

    /** A process of the nvidia-smi table: its GPU, PID, name as printed, and the GPU memory it holds in MiB (-1: N/A). */
    record SmiProcess(int gpu, long pid, String name, long memoryMiB, Span span) {}

    /** ibstat, ibv_devinfo or ibstatus: every port of every adapter. */
    record IbPorts(String file, Kind kind, List<IbPort> ports) implements Evidence {}

    /**
     * One port: the adapter (mlx5_0) and port number; state as printed (Active, Down, PORT_ACTIVE
     * (4); ibstatus's name after its number: ACTIVE, INIT); physical state ("" when not printed); rate in Gb/s (-1 when not printed); link layer
     * (InfiniBand, Ethernet; "" when not printed). Spans are null for what is not printed.
     */
    record IbPort(String adapter, int port, Span span, Word state, Word physicalState, double rateGbps, Span rateSpan,
                  Word linkLayer) {}

    /**
     * nccl-tests output: the test's name when the file says it ("" otherwise); each rank's host
     * and GPU name (the '#  Rank' lines); the size table; the average bus bandwidth (-1 without
     * one).
     */
    record NcclTests(String file, String test, Span headerSpan, List<Rank> ranks, List<Row> rows, double avgBusbw,
                     Span avgSpan) implements Evidence {
        public Kind kind() { return Kind.NCCL_TESTS; }
    }

    /** A '#  Rank' line: the rank, its host, its device index and the GPU name printed after the bus ID. */
    record Rank(int rank, String host, int device, String gpuName, Span span) {}

    /**
     * A row of the size table: size in bytes, algbw and busbw in GB/s (out-of-place and in-place;
     * -1 when not a number), #wrong (out-of-place and in-place; -1 when "N/A" or absent).
     */
    record Row(long bytes, double algbwOut, double busbwOut, long wrongOut, double algbwIn, double busbwIn, long wrongIn,
               Span span, Span wrongOutSpan, Span wrongInSpan) {}

    /**
     * An NCCL_DEBUG=INFO log: the lines that matter, each kept with its span (the first
     * {@link NcclLog#KEEP} of a kind; {@code counts} has them all). {@code maxNodes} is the largest
     * node count a communicator's init line states (NCCL 2.19+: "nNodes 2"), -1 when none does;
     * {@code oneNodeRanks} the most ranks ("nRanks") of a communicator of one node (nNodes 1), -1 when
     * none; {@code maxNetRank} the largest rank any channel through the network names, -1 when none.
     */
    record NcclLog(String file, List<LogLine> lines, java.util.Map<String, Integer> counts, int maxNodes, int oneNodeRanks,
                   int maxNetRank) implements Evidence {
        /** Lines kept per kind; the rest are counted. */
        public static final int KEEP = 50;

        public Kind kind() { return Kind.NCCL_LOG; }
    }

    /**
     * One line of an NCCL log: {@code what} is NET_IB (NET/IB : Using ...), NET_SOCKET (NET/Socket :
     * Using ...), USING_NETWORK (Using network X: {@code detail} is X), CHANNEL (a channel's path:
     * {@code detail} is the transport after "via", with {@code from}/{@code to} ranks and
     * {@code netSide} true for [send]/[receive] network lines), WARN ({@code detail} the text).
     */
    record LogLine(String what, String host, String detail, int from, int to, boolean netSide, Span span) {}

    /**
     * A training run's log as its framework prints it (Megatron-LM, Megatron-DeepSpeed, NeMo/Lightning, torchtitan,
     * llm-foundry/composer, DeepSpeed): the framework recognised ("megatron", "megatron-deepspeed", "nemo",
     * "torchtitan", "composer", "deepspeed"), where it was recognised, and the step lines in file order.
     * {@code skipped} and {@code nan} are the skipped and NaN iterations the log reports in all (0 when it reports none).
     */
    record TrainingLog(String file, String framework, Span frameworkSpan, List<TrainStep> steps, long skipped, long nan)
            implements Evidence {
        public Kind kind() { return Kind.TRAINING_LOG; }
    }

    /**
     * One logged step, every figure as the log states it converted to these units, -1 when the line does not state
     * it: the iteration (or step) number; the step time in seconds; tokens per second per GPU (torchtitan's tps;
     * a job-wide figure divided by the GPUs only when the log states them); model TFLOP/s per GPU; MFU in percent;
     * the peak memory in GiB; the global batch in samples; and where the line is.
     */
    record TrainStep(long iteration, double stepSeconds, double tokensPerSecondPerGpu, double tflopsPerGpu,
                     double mfuPercent, double memoryGib, long globalBatch, Span span) {}

    /**
     * GPU telemetry sampled over time: nvidia-smi dmon ({@link Kind#SMI_DMON}), nvidia-smi --query-gpu CSV
     * ({@link Kind#SMI_CSV}) or dcgm-exporter scrapes ({@link Kind#DCGM_METRICS}). One sample per GPU per sampling
     * instant, in file order.
     */
    record GpuSamples(String file, Kind kind, List<GpuSample> samples) implements Evidence {}

    /**
     * One GPU at one instant: the host ("" when the capture does not say), the GPU index, the time in seconds from the
     * capture's first sample (-1 when the capture gives none), the values read, and where the sample's line is.
     * {@code values} keys name the quantity and its unit: gauges "gpu_util_percent", "sm_active_fraction",
     * "sm_clock_mhz", "sm_clock_max_mhz", "mem_clock_mhz", "power_w", "power_limit_w", "temp_c", "memory_used_mib",
     * "memory_total_mib"; rates as the tool prints them "pcie_rx_mb_per_s", "pcie_tx_mb_per_s"; and counters, whose
     * key ends in "_total" ("nvlink_tx_bytes_total", "nvlink_rx_bytes_total", "pcie_tx_bytes_total",
     * "pcie_rx_bytes_total", "xid_errors_total"): a counter is a running total, so a rate needs two samples and the
     * time between them, never one value read as a rate. A reader may add keys in the same naming.
     * <p>Read today (TelemetryReader): dmon and the query CSV add "mem_util_percent", "mem_temp_c", "graphics_clock_mhz",
     * "mem_clock_max_mhz", "memory_free_mib", "enc_util_percent", "dec_util_percent", "power_violation_percent",
     * "thermal_violation_flag" (0/1), "bar1_used_mib", "pcie_gen", "pcie_width", "fan_percent". dcgm-exporter adds the
     * gauges "sm_occupancy_fraction", "gr_engine_active_fraction", "tensor_active_fraction", "dram_active_fraction";
     * DCGM's profiling byte fields (DCGM_FI_PROF_PCIE_TX_BYTES/RX, DCGM_FI_PROF_NVLINK_TX_BYTES/RX) are rates by
     * DCGM's field definition and read as "pcie_tx_bytes_per_s", "pcie_rx_bytes_per_s", "nvlink_tx_bytes_per_s",
     * "nvlink_rx_bytes_per_s" (so "pcie_tx_bytes_total" and "nvlink_tx_bytes_total" are written by no reader yet);
     * DCGM_FI_DEV_XID_ERRORS is the last XID seen, "xid_last" (not "xid_errors_total"); DCGM_EXP_XID_ERRORS_COUNT,
     * the XIDs of the exporter's window, "xid_errors_in_window"; running totals "pcie_replay_total",
     * "energy_mj_total", "nvlink_crc_flit_errors_total", "nvlink_crc_data_errors_total", "nvlink_replay_errors_total",
     * "nvlink_recovery_errors_total".
     */
    record GpuSample(String host, int gpu, double seconds, java.util.Map<String, Double> values, Span span) {
        public GpuSample {
            values = java.util.Map.copyOf(values);
        }
    }
}
