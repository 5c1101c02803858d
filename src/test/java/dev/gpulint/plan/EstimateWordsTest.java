package dev.gpulint.plan;

import dev.gpulint.spec.ParallelDim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.derive.estimate.Collective;
import dev.gpulint.derive.estimate.CollectiveCost;
import dev.gpulint.derive.estimate.FlexDispatch;
import dev.gpulint.derive.estimate.JobEstimate;
import dev.gpulint.derive.estimate.Links;
import dev.gpulint.derive.estimate.ModelShape;
import dev.gpulint.derive.estimate.PipelineSplit;
import dev.gpulint.derive.estimate.Term;
import dev.gpulint.derive.estimate.Tier;
import org.junit.jupiter.api.Test;

/**
 * Each kind of estimate term in words, from figures given here (the breakdown of samples/plan/llama2-70b.yaml's job
 * for most of them): the sentence the plan prints, its numbers rounded as the breakdown rounds them.
 */
class EstimateWordsTest {

    /** An H100 node group's links (NVLink 4) as the catalog builds them. */
    private static Links h100() {
        dev.gpulint.derive.Fixture f = dev.gpulint.derive.Fixture.of("""
                kind: cluster
                name: c
                node_groups:
                  - name: g
                    count: 2
                    gpu: { model: H100-SXM5-80GB, count: 8 }
                    nvlink: { switch: true }
                ---
                kind: training_job
                name: j
                cluster: c
                node_group: g
                nodes: 2
                gpus_per_node: 8
                model: { dtype: bf16, layers: 32, hidden_size: 4096, attention_heads: 32, vocab_size: 32000, seq_length: 4096 }
                parallelism: { tp: 8 }
                batch: { micro_batch_size: 1, global_batch_size: 64 }
                """);
        return JobEstimate.of(f.jobs().get(0), f.catalog()).inputs().hardware().links();
    }

    @Test
    void compute() {
        Term.Compute c = new Term.Compute(20, 5.26e12, 683e12, ModelShape.Dtype.BF16, 990e12, 0.69, 12, 10e-6, 0.206e12, false, 297e12,
                2.42e9, 2680e9, 200e-6, 2.6e-3, 0.1949);
        assertEquals("compute: 20 layers per stage × (linear 5.26 TFLOP at 683 TFLOP/s (bf16 peak 990 × 0.69) + 12 kernels × 10.0 µs;"
                + " causal attention 12·s·a·d/2 0.206 TFLOP at 297 TFLOP/s; elementwise 2.42 GB at 2680 GB/s; 200.0 µs fixed) + logits"
                + " 2.6 ms = 194.9 ms per micro-batch", EstimateWords.line(c));
        Term.Compute uneven = new Term.Compute(20.5, 5.26e12, 683e12, ModelShape.Dtype.FP8, 1979e12, 0.5, 16, 10e-6, 0.206e12, false, 297e12,
                2.42e9, 2680e9, 200e-6, 0, 0.1949);
        assertEquals("20.50 layers per stage × (linear 5.26 TFLOP at 683 TFLOP/s (fp8 peak 1979 × 0.50) + 16 kernels × 10.0 µs;"
                + " causal attention 12·s·a·d/2 0.206 TFLOP at 297 TFLOP/s; elementwise 2.42 GB at 2680 GB/s; 200.0 µs fixed) + logits"
                + " 0.0 µs = 194.9 ms per micro-batch", EstimateWords.text(uneven));
        Term.Compute latent = new Term.Compute(20, 5.26e12, 683e12, ModelShape.Dtype.BF16, 990e12, 0.69, 12, 10e-6, 0.206e12, true, 297e12,
                2.42e9, 2680e9, 200e-6, 2.6e-3, 0.1949);
        assertTrue(EstimateWords.text(latent).contains("; causal attention 6·s·a·(d_h + d_hR + d_v)/2 0.206 TFLOP at 297 TFLOP/s;"),
                EstimateWords.text(latent));
    }

    @Test
    void moe() {
        Term.Moe routed = new Term.Moe(48, 48, 128, 64, 1, 1, 0.5, 1e12, 600e12, 2.4e9, 2680e9, 6, 10e-6, 768, 26e-6, 0.004, 200e-6, 300e-6,
                8192, 100e-6, 0, 0, 0, 0, 0.0046, 0, 768, 0.001, 0);
        assertEquals("moe: 48 of 48 layers MoE: 128 local experts × 64 tokens each (T·k·ep·etp/(tp·E), etp 1), tile fill 0.50 → the longer"
                + " of routed 1.00 TFLOP at 300 TFLOP/s and expert weights 2.40 GB at 2680 GB/s, + 6 kernels × 10.0 µs + 768 expert GEMMs × 26.0 µs (fitted on H100 bf16) = 4.0 ms (42 % of the"
                + " dense GEMM rate); router 200.0 µs; permutation 300.0 µs (8 × 8192 rows × h); expert activation function 100.0 µs = 4.6 ms"
                + " per MoE layer (in the compute above: linear counts attention only)", EstimateWords.line(routed));
        Term.Moe mixed = new Term.Moe(3, 4, 1, 64, 2, 1.25, 0.5, 1e12, 600e12, 2.4e9, 2680e9, 6, 10e-6, 6, 26e-6, 0.004, 200e-6, 300e-6,
                2.5e6, 100e-6, 0, 0, 2048, 500e-6, 0.0046, 1, 4096, 0.002, 0);
        assertEquals("3 of 4 layers MoE: 1 local expert × 64 tokens each (T·k·ep·etp/(tp·E), etp 2, × capacity 1.25), tile fill 0.50 → the"
                + " longer of routed 1.00 TFLOP at 300 TFLOP/s and expert weights 2.40 GB at 2680 GB/s, + 6 kernels × 10.0 µs + 6 expert GEMMs × 26.0 µs (fitted on H100 bf16) = 4.0 ms (42 % of"
                + " the dense GEMM rate); router 200.0 µs; permutation 300.0 µs (8 × 2.5M rows × h); expert activation function 100.0 µs;"
                + " shared experts (ffn 2048) 500.0 µs = 4.6 ms per MoE layer; 1 dense layer (ffn 4096) 2.0 ms each (in the compute above:"
                + " linear counts attention only)", EstimateWords.text(mixed));
        // fp8: the routed rows' casts, printed with their bytes and rate; a 16-bit term (above) prints none
        Term.Moe fp8 = new Term.Moe(48, 48, 16, 4096, 1, 1, 1, 1e12, 1227e12, 0.45e9, 2680e9, 6, 10e-6, 96, 26e-6, 0.004, 60e-6, 800e-6,
                65536, 260e-6, 1.08e9, 1.08e9 / 2680e9, 0, 0, 0.0055, 0, 768, 0.001, 0);
        assertTrue(EstimateWords.text(fp8).contains("; expert activation function 260.0 µs; routed rows' quantizing casts 1.08 GB (6 bytes per GEMM"
                + " input element, k rows per token) at 2680 GB/s = 403.0 µs = 5.5 ms per MoE layer"), EstimateWords.text(fp8));
    }

    @Test
    void collectivesOnEachTierSayTheirPathAndRate() {
        Links h100 = h100();
        double s = 8192.0 * 4096 * 2, v = s * 3 / 4;
        CollectiveCost nvlink = CollectiveCost.withoutLatency(Collective.ALL_GATHER, 4, Tier.NVLINK, s, v, 450e9, 0.8, false, 4, 0,
                CollectiveCost.Limit.SCALE_UP, v / 450e9, v / 360e9);
        assertEquals("tp: 160 × tp all-gather/reduce-scatter per micro-batch (b·s·h·2 bytes each) over 4 ranks: 50.3 MB moved per rank"
                        + " ((n−1)/n·S) each, over NVLink 4 at 360 GB/s (450 GB/s line rate × 0.80): 22.4 ms",
                EstimateWords.line(new Term.Collectives(ParallelDim.TP, 160, "all-gather/reduce-scatter per micro-batch (b·s·h·2 bytes each)", 4,
                        nvlink, h100, 160 * nvlink.seconds())));
        // a ring across nodes with 2 of its ranks on each: they share the node's NICs
        CollectiveCost ring = CollectiveCost.withoutLatency(Collective.ALL_REDUCE, 4, Tier.NETWORK, 17.38e9, 26.07e9, 100e9, 0.9, false, 2, 0,
                CollectiveCost.Limit.NICS, 26.07e9 / 100e9, 26.07e9 / 90e9);
        assertEquals("1 × dp gradient all-reduce over 4 ranks: 26.07 GB moved per rank (2(n−1)/n·S) each, over "
                        + h100.tierName(Tier.NETWORK) + " (the ring's 2 ranks on a node cross it once per channel: 2 GPUs' share of its"
                        + " NICs) at 90 GB/s (100 GB/s line rate × 0.90): 289.7 ms",
                EstimateWords.text(new Term.Collectives(ParallelDim.DP, 1, "gradient all-reduce", 4, ring, h100, ring.seconds())));
        // an all-to-all across nodes, at a measured bus bandwidth; a count that is not whole
        CollectiveCost a2a = CollectiveCost.withoutLatency(Collective.ALL_TO_ALL, 16, Tier.NETWORK, 1e9, 0.9375e9, 50e9, 0.6, true, 8, 0.5e9,
                CollectiveCost.Limit.OWN_NIC, 0.01, 0.03125);
        assertEquals("2.5 × ep all-to-all per micro-batch over 16 ranks: 937.5 MB moved per rank ((n−1)/n·S) each, over "
                        + h100.tierName(Tier.NETWORK) + " (8 of the 16 ranks in reach inside; 500.0 MB per rank through its own NIC) at 30 GB/s"
                        + " (measured by nccl-tests): 78.1 ms",
                EstimateWords.text(new Term.Collectives(ParallelDim.EP, 2.5, "all-to-all per micro-batch", 16, a2a, h100, 2.5 * a2a.seconds())));
    }

    @Test
    void flexAcrossDeepEpGroupsAndAcrossNodes() {
        // a GB200 NVL72 rack (trays of 4, NVLink 5 at 900 GB/s per direction, a 400 Gb/s NIC per GPU), ep 32 of it under DeepEP:
        // 4 groups of 8; per token E[groups] 3.63 · 3/4 = 2.72 remote copies, E[GPUs] 7.36 · 7/8 = 6.44 forwards; T·h·2 =
        // 4,096 · 2,048 · 2 = 16.78 MB of the rank's tokens: 45.66 MB through its NIC at 0.88 × 50 GB/s = 1.04 ms a pass
        Links rack = new Links(4, 72, true, false, 5, 900e9, 6, 121e9, false, 4 * 50e9, Links.Transport.RDMA, 4, "400 Gb/s", null, null, 32);
        FlexDispatch.Traffic t = new FlexDispatch.Traffic(4, 8, 3.63, 7.36, 3.63 * 3 / 4, 7.36 * 7 / 8, 6.0);
        double token = 4096.0 * 2048 * 2, remote = token * t.remote(), inside = token * t.forwarded();
        CollectiveCost k = CollectiveCost.withoutLatency(Collective.ALL_TO_ALL, 32, Tier.NETWORK, token * 8, remote + inside, 50e9, 0.88,
                false, 8, remote, CollectiveCost.Limit.OWN_NIC, remote / 50e9, remote / 44e9);
        assertEquals("ep: 192 × ep flex dispatch/combine per micro-batch over 32 ranks on 4 groups of 8 (DeepEP's NVLink peers,"
                        + " NUM_MAX_NVL_PEERS) (DeepEP, FlexDispatch): the rank's tokens (16.8 MB in 16 bits) each go E[groups hit] 3.63 ×"
                        + " (N − 1)/N = 2.72 times over RDMA (the all-to-all: k·(n − L)/n = 6.00) and E[GPUs hit] 7.36 × (L − 1)/L = 6.44"
                        + " times over NVLink; 45.7 MB through each rank's own NIC at 0.88 × 50 GB/s and 108.0 MB over NVLink 5 at 0.67 ×"
                        + " 900 GB/s, both at once, the NIC decides: 199.3 ms",
                EstimateWords.line(new Term.Flex(ParallelDim.EP, 192, 32, t, token, FlexDispatch.Backend.DEEPEP, true, k, rack,
                        192 * k.seconds())));
        // HybridEP across two racks: its units are the nodes (the racks) of 72
        FlexDispatch.Traffic r = new FlexDispatch.Traffic(2, 72, 2.0, 8.0, 1.0, 8.0 * 71 / 72, 4.0);
        CollectiveCost k2 = CollectiveCost.withoutLatency(Collective.ALL_TO_ALL, 144, Tier.NETWORK, token * 8, token * (1 + 8.0 * 71 / 72),
                50e9, 0.88, false, 72, token, CollectiveCost.Limit.OWN_NIC, token / 50e9, token / 44e9);
        assertTrue(EstimateWords.line(new Term.Flex(ParallelDim.EP, 4, 144, r, token, FlexDispatch.Backend.HYBRIDEP, false, k2, rack,
                4 * k2.seconds())).startsWith("ep: 4 × ep flex dispatch/combine per micro-batch over 144 ranks on 2 nodes of 72 (HybridEP,"
                + " FlexDispatch): the rank's tokens (16.8 MB in 16 bits) each go E[nodes hit] 2.00 × (N − 1)/N = 1.00 times over RDMA"));
    }

    @Test
    void sends() {
        CollectiveCost send = CollectiveCost.withoutLatency(Collective.SEND, 4, Tier.PCIE, 671.1e6, 671.1e6, 63e9, 0.8, false, 4, 0,
                CollectiveCost.Limit.PCIE, 671.1e6 / 63e9, 671.1e6 / 50.4e9);
        assertEquals("pp: pp activation and gradient sends: 671.1 MB per micro-batch over PCIe Gen5 at 50 GB/s (63 GB/s line rate × 0.80):"
                + " 13.3 ms", EstimateWords.line(new Term.Sends(ParallelDim.PP, "activation and gradient sends", 1, 671.1e6, send, h100(), send.seconds())));
        // across nodes a send goes through the sending GPU's own NIC, whatever its group's other ranks on the node
        Links h100 = h100();
        CollectiveCost net = CollectiveCost.withoutLatency(Collective.SEND, 8, Tier.NETWORK, 671.1e6, 671.1e6, 50e9, 0.9, false, 1, 0,
                CollectiveCost.Limit.OWN_NIC, 671.1e6 / 50e9, 671.1e6 / 45e9);
        assertEquals("pp: pp activation and gradient sends: 671.1 MB per micro-batch over " + h100.tierName(Tier.NETWORK)
                + " (a send is one pair of GPUs: the sending GPU's own NIC) at 45 GB/s (50 GB/s line rate × 0.90): 14.9 ms",
                EstimateWords.line(new Term.Sends(ParallelDim.PP, "activation and gradient sends", 1, 671.1e6, net, h100, net.seconds())));
    }

    @Test
    void bubbleEvenAndUneven() {
        assertEquals("bubble: (pp − 1)/vpp = 3/20 of one micro-batch's 209.1 ms: 31.4 ms (the bubble's share of the schedule, (pp − 1)/(vpp·m + pp − 1) = 3/(20·32 + 3) = 0.5 %,"
                + " with m = 32 micro-batches per schedule)",
                EstimateWords.line(new Term.Bubble(4, 20, PipelineSplit.EVEN, 80, 20, 3, 0.2091, 0.03137, 32)));
        assertEquals("layers 7 on the first stage, 7 on the last, 8 on each other (uneven split): the other stages' layers ÷ the slowest"
                        + " stage's (8) = 14.75 stages' worth, /vpp 1, of one micro-batch's 200.0 ms: 2.95 s (the bubble's share of the schedule,"
                        + " bubble ÷ (bubble + m × micro-batch) = 18.7 %, with m = 64 micro-batches per schedule)",
                EstimateWords.text(new Term.Bubble(16, 1, new PipelineSplit(7, 7, false, false), 126, 8, 14.75, 0.2, 14.75 * 0.2, 64)));
    }

    @Test
    void aBubbleIsAShareOfItsScheduleAndPaidPerSchedule() {
        // torchtitan's llama4_17bx128e.toml shape: pp 4, one micro-batch a schedule: 3 micro-batches' worth idle, 75 % of the
        // schedule (before: "bubble fraction 300.0 % of 1 micro-batches", idle ÷ compute)
        assertEquals("bubble: (pp − 1)/vpp = 3/1 of one micro-batch's 100.0 ms: 300.0 ms (the bubble's share of the schedule,"
                + " (pp − 1)/(vpp·m + pp − 1) = 3/(1·1 + 3) = 75.0 %, with m = 1 micro-batch per schedule)",
                EstimateWords.line(new Term.Bubble(4, 1, PipelineSplit.EVEN, 48, 12, 3, 0.1, 0.3, 1)));
        // two schedules of 4 (torchtitan's gradient accumulation): the bubble twice
        assertEquals("bubble: (pp − 1)/vpp = 1/1 of one micro-batch's 100.0 ms: 100.0 ms per pipeline schedule × 2 schedules per step"
                + " (torchtitan runs one per gradient-accumulation step, global ÷ (local × dp)) = 200.0 ms (the bubble's share of each"
                + " schedule, (pp − 1)/(vpp·m + pp − 1) = 1/(1·4 + 1) = 20.0 %, with m = 4 micro-batches per schedule)",
                EstimateWords.line(new Term.Bubble(2, 1, PipelineSplit.EVEN, 48, 24, 1, 0.1, 0.2, 4, java.util.List.of(),
                        java.util.List.of(), java.util.List.of(), 2)));
    }

    @Test
    void bubbleWithTheMtpStageByItsTime() {
        // pp 2, 2 decoder layers a stage, the MTP layers' 2 blocks and eh_proj on rank 1 worth 2.5 mean layers: 2 ÷ 4.5 of one
        // micro-batch, not 2 ÷ 4 (the blocks as mean layers, eh_proj free)
        assertEquals("bubble: the stages' layers' worth 2, 4.50 by rank (the decoder's at the mean layer; the MTP layers' 2 blocks on"
                        + " rank 1, 2.50 layers' worth: their blocks at their kind and eh_proj at what they cost, MtpLayers): the other"
                        + " stages' ÷ the slowest stage's (4.50) = 0.44 stages' worth, /vpp 1, of one micro-batch's 4.8 ms: 2.1 ms (the"
                        + " bubble's share of the schedule, bubble ÷ (bubble + m × micro-batch) = 2.7 %, with m = 16 micro-batches per schedule)",
                EstimateWords.line(new Term.Bubble(2, 1, PipelineSplit.EVEN, 4, 4.5, 2 / 4.5, 0.0048, 2 / 4.5 * 0.0048, 16,
                        java.util.List.of(2.0, 4.5), java.util.List.of(0.0, 2.0), java.util.List.of(0.0, 2.5))));
    }

    @Test
    void dpExposureOffloadAndOptimizer() {
        assertEquals("dp: exposed of it: max((1 − dp_overlap) = 0.61 of it, what the compute beside it loses (Lee et al. 2025: compute"
                + " 18.9 % slower under overlap, sequential 10.2 % slower than overlapped); what outlasts the compute it hides behind) ="
                + " 132.5 ms of 217.2 ms", EstimateWords.line(new Term.DpExposure(0.39, 0.1325, 0.2172)));
        assertEquals("offload: 2 layers' activations (3.20 GB per micro-batch) to host memory and back over PCIe Gen5 at 50.4 GB/s (63.0 GB/s"
                        + " per direction × 0.80): 63.5 ms each way, behind the offloaded layers' forward 20.0 ms and backward 40.0 ms: 70.5 ms"
                        + " exposed per micro-batch",
                EstimateWords.line(new Term.Offload(2, 3.2e9, "PCIe Gen5", 50.4e9, 63e9, 0.8, 0.0635, 0.02, 0.04, 0.0705)));
        assertEquals("offload: 2 layers' activations (3.20 GB per micro-batch) to host memory and back over NVLink-C2C at 360.0 GB/s"
                        + " (450.0 GB/s per direction × 0.80): 8.9 ms each way, behind the offloaded layers' forward 20.0 ms and backward"
                        + " 40.0 ms: 0.0 µs exposed per micro-batch",
                EstimateWords.line(new Term.Offload(2, 3.2e9, "NVLink-C2C", 360e9, 450e9, 0.8, 0.00889, 0.02, 0.04, 0)));
        assertEquals("optimizer: Adam reads and writes 30 bytes per local parameter (1.09B) at 2680 GB/s: 12.2 ms",
                EstimateWords.line(new Term.Optimizer(1.09e9, 2680e9, 0.0122)));
    }
}
