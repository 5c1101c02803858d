package dev.gpulint.derive.estimate;

import dev.gpulint.spec.Located;
import dev.gpulint.spec.Specs;
import java.util.List;

/** The shard group of hybrid sharding (HSDP) as the job states it, for {@link JobInputs}; {@link HybridShard} prices it. */
final class HybridInputs {
    private HybridInputs() {}

    /**
     * The shard group's size: parallelism.dp_shard (torchtitan's data_parallel_shard_degree beside a replicate degree),
     * else dp ÷ the replicate degree when only that is written (torchtitan's shard degree -1); 0 (all of dp) without
     * hybrid sharding or when the stated size does not divide dp (said in {@code as}).
     */
    static int shard(Specs.Parallelism par, long dp, List<String> as) {
        if (par == null) return 0;
        Located<Long> shard = par.dpShard(), replicate = par.dpReplicate();
        if (shard != null && shard.value() >= 1) {
            if (shard.value() <= dp && dp % shard.value() == 0) return (int) shard.value().longValue();
            as.add("parallelism.dp_shard " + shard.value() + " does not divide dp " + dp + ": the states shard over all of dp");
            return 0;
        }
        if (replicate != null && replicate.value() > 1) {
            if (dp % replicate.value() == 0) return (int) (dp / replicate.value());
            as.add("data-parallel replicate degree " + replicate.value() + " does not divide dp " + dp + ": the states shard over all of dp");
        }
        return 0;
    }

    /**
     * The assumptions line of a hybrid-sharded layout (none without hybrid sharding): a shard group of one rank (dp_shard 1,
     * cp 1: PyTorch FSDP accepts a shard dimension of 1, torchtitan then runs plain DDP) is pure replication, the replicas'
     * all-reduce alone ({@link HybridSync} prices no collective over one rank); under ZeRO stage 2 (FSDP's
     * _HYBRID_SHARD_ZERO2, FSDP2's reshard_after_forward off) the parameters are gathered once per micro-batch, for the
     * forward, and kept whole through the backward ({@link HybridSync#gathersPerUnit}); under stage 1 (no FSDP strategy
     * runs it) the shard group sizes the memory only, the communication is priced as ZeRO-1's over all dp·cp.
     */
    static void describe(Layout l, List<String> as) {
        if (!l.hybrid() || l.zeroStage() < 1) return;
        if (!HybridSync.priced(l.zeroStage())) {
            as.add("hybrid sharding with ZeRO stage " + l.zeroStage() + ": the states ZeRO-" + l.zeroStage()
                    + " shards are divided over the " + l.shardRanks() * l.cp() + " ranks of a shard group, and the " + l.replicas()
                    + " replicas hold them whole; the communication is priced as ZeRO-" + l.zeroStage() + "'s over all " + l.dp() * l.cp()
                    + " dp·cp ranks (the estimate prices a shard group's collectives and the replicas' all-reduce for ZeRO-2 and 3)");
            return;
        }
        if (l.pp() > 1 && l.shardRanks() * l.cp() > 1) {
            // torch.distributed.pipelining (torchtitan): FSDP's post-backward once per step (HybridSync.perStep)
            as.add("hybrid sharding with pipeline parallelism (torch.distributed.pipelining's schedules, torchtitan's): the"
                    + " gradients accumulate unsharded over the step's micro-batches and are reduce-scattered in the shard group of "
                    + l.shardRanks() + (l.cp() > 1 ? "·cp " + l.cp() : "") + " ranks and all-reduced over the " + l.replicas()
                    + " replicas once, one per layer, after the stage's last backward (behind no compute); the parameters are"
                    + " all-gathered there " + (l.zeroStage() >= 3 ? "m + 1 times per layer and step (the forward reshards them, the"
                    + " backward keeps them)" : "once per layer and step, for the first forward, and kept through the step (ZeRO-2)"));
            return;
        }
        if (l.zeroStage() == 2 && l.shardRanks() * l.cp() > 1) {
            as.add("hybrid sharding with ZeRO stage 2 (FSDP's _HYBRID_SHARD_ZERO2, FSDP2's reshard_after_forward off): gradients and"
                    + " optimizer states shard over the " + l.shardRanks() + (l.cp() > 1 ? "·cp " + l.cp() : "") + " ranks of a shard"
                    + " group; each micro-batch all-gathers the parameters there once per layer for the forward and keeps them whole"
                    + " through the backward (no backward all-gather; the whole weights counted on every GPU), reduce-scatters the"
                    + " gradients there, and all-reduces each shard's gradients over the " + l.replicas() + " replicas");
            return;
        }
        if (l.shardRanks() * l.cp() == 1) {
            as.add("hybrid sharding with a shard group of one rank (dp_shard 1): no shard group, nothing all-gathered or"
                    + " reduce-scattered; every GPU holds the whole weights, gradients and optimizer states, and the " + l.replicas()
                    + " replicas all-reduce the whole gradients, one collective per layer");
            return;
        }
        as.add("hybrid sharding (HSDP): weights, gradients and optimizer states shard over the " + l.shardRanks()
                + (l.cp() > 1 ? "·cp " + l.cp() : "") + " ranks of a shard group (all-gathers and reduce-scatters there), and each"
                + " shard's gradients are all-reduced over the " + l.replicas() + " replicas");
    }
}
