package dev.gpulint.bind.adapt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.gpulint.spec.Specs;
import dev.gpulint.testing.Foreign;
import dev.gpulint.testing.Recipes;
import org.junit.jupiter.api.Test;

/**
 * torchtitan's HSDP (our own fixtures in the shape of its [parallelism] table): a replicate degree above 1 beside a
 * shard degree makes the shard degree the group the states shard over; with the shard degree left at -1 the replicate
 * degree is kept so the estimate can take the rest of dp; a replicate degree of 1 is plain FSDP.
 */
class TorchtitanHsdpTest {

    private static Specs.Parallelism par(String degrees) {
        return Foreign.bind("llama3_70b.toml", Recipes.torchtitan("70B").training("local_batch_size = 2", "seq_len = 8192")
                .parallelism(degrees, "tensor_parallel_degree = 8").toml()).parallelism();
    }

    @Test
    void replicasBesideShardsAreHybridShardingOverTheShardDegree() {
        Specs.Parallelism p = par("data_parallel_replicate_degree = 4\ndata_parallel_shard_degree = 2");
        assertEquals(8L, p.dp().value(), "dp as Megatron counts it: replicas × shards");
        assertEquals(2L, p.dpShard().value());
        assertEquals(11, p.dpShard().span().startLine());
        assertNull(p.dpReplicate());
    }

    @Test
    void theRestOfDpAsShardsKeepsTheReplicateDegree() {
        Specs.Parallelism p = par("data_parallel_replicate_degree = 4\ndata_parallel_shard_degree = -1");
        assertNull(p.dpShard());
        assertEquals(4L, p.dpReplicate().value());
        assertEquals(10, p.dpReplicate().span().startLine());
    }

    @Test
    void oneReplicaOrOneShardIsNotHybrid() {
        Specs.Parallelism fsdp = par("data_parallel_replicate_degree = 1\ndata_parallel_shard_degree = 8");
        assertNull(fsdp.dpShard());
        assertNull(fsdp.dpReplicate());
        Specs.Parallelism ddp = par("data_parallel_replicate_degree = 8\ndata_parallel_shard_degree = 1");
        assertNull(ddp.dpShard(), "replicas without sharding are DDP");
        assertNull(ddp.dpReplicate());
    }
}
