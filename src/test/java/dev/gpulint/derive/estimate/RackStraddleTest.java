package dev.gpulint.derive.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A group that fits an NVL72 rack's size but straddles the boundary between two racks runs on the network (issue 35,
 * tp 4 · cp 2 · dp 2 fill ranks 64–79 of pipeline stage 4, the second rack beginning at rank 72, when the job's ranks
 * fill racks in order). A job of whole 16-tray segments runs one per rack ({@link Links#forJob}); a ring is as slow as its
 * slowest hop.
 */
class RackStraddleTest {

    /** A GB200 NVL72 rack: trays of 4 GPUs, NVLink 5 900 GB/s per direction, one 400 Gb/s NIC per GPU off the Grace CPU. */
    private static Links rack(long domain) {
        return new Links(4, domain, true, false, 5, 900e9, 6, 121e9, false, 4 * 50e9, Links.Transport.RDMA, 4, "400 Gb/s", null, null, 0);
    }

    @Test
    void aGroupStraddlesWhenItsBlockDoesNotDivideTheRackAndTheJobOutgrowsOne() {
        // the 405B's data-parallel group as the estimate prices it: dp·cp = 4 ranks, dp's stride 8 (tp 4 · cp 2): blocks of 32
        assertTrue(Tier.straddles(4, 8, 72, 128), "72 is not a multiple of 32: the block of ranks 64–95 holds the boundary");
        assertTrue(Tier.straddles(4, 8, 72, 144), "two full racks: the boundary at 72 still cuts a block");
        assertFalse(Tier.straddles(4, 8, 72, 64), "64 of 72 GPUs: one rack, no boundary");
        assertFalse(Tier.straddles(4, 8, 72, 72), "a full rack");
        assertFalse(Tier.straddles(8, 1, 72, 144), "tp 8: 72 = 9 × 8, every tp group inside one rack");
        assertFalse(Tier.straddles(4, 8, 72, 0), "no job's GPU count known: taken to fit");
        assertFalse(Tier.straddles(1, 8, 72, 144), "a group of one never straddles");
        // NVL36: racks of 36 GPUs (9 trays of 4): tp 8 groups cut at rank 36, tp 4 ones never
        assertTrue(Tier.straddles(8, 1, 36, 64));
        assertFalse(Tier.straddles(4, 1, 36, 64));
        assertFalse(Tier.straddles(8, 1, 36, 32), "32 GPUs: one NVL36 rack");
    }

    @Test
    void theTierIsTheSlowestGroupsAsRanksFillRacksInOrder() {
        assertEquals(Tier.NETWORK, Tier.of(4, 8, 4, 72, true, 128), "stage 4 (ranks 64–79) crosses into the second rack");
        assertEquals(Tier.NVLINK, Tier.of(4, 8, 4, 72, true, 64), "64 of 72: one rack");
        assertEquals(Tier.NVLINK, Tier.of(4, 8, 4, 72, true, 0), "rank order not known: as before");
        assertEquals(Tier.NVLINK, Tier.of(8, 1, 4, 72, true, 144), "tp 8 never leaves a rack of 72");
        assertEquals(Tier.NETWORK, Tier.of(8, 1, 4, 36, true, 64), "tp 8 on NVL36: ranks 32–39 span two racks");
        assertEquals(Tier.NVLINK, Tier.of(4, 1, 4, 36, true, 64), "tp 4 on NVL36: one tray");
        // an HGX node of 8 (node = domain): a group of 2 spaced 3 apart (blocks of 6) crosses the node at rank 8
        assertEquals(Tier.NETWORK, Tier.of(2, 3, 8, 8, true, 24));
        assertEquals(Tier.NVLINK, Tier.of(2, 4, 8, 8, true, 24), "blocks of 8: every group inside its node");
    }

    @Test
    void aStraddlingRingSharesTheNicsOfItsFewestMembersOnOneSide() {
        // dp stride 8, n 4: the boundary lies 8 ranks into the block of 64–95, so groups 64+j (j < 8) have 1 member below
        assertEquals(1, Tier.membersPerDomain(4, 8, 72, 128));
        // stride 4 (dp·cp as one group 4 apart): 64, 68 | 72, 76: two on each side
        assertEquals(2, Tier.membersPerDomain(4, 4, 72, 128));
        // a group of 8 ranks 2 apart on NVL36, 64 GPUs: the block 32–47 holds the boundary at 36: 32, 34 | 36 ... 46
        assertEquals(2, Tier.membersPerDomain(8, 2, 36, 64));
        assertEquals(4, Tier.membersPerDomain(4, 8, 72, 64), "not straddling: every member in the rack");
    }

    @Test
    void aJobOfWholeSegmentsRunsOneSegmentPerRackAnyOtherFillsRacksInOrder() {
        assertEquals(72, rack(72).forJob(64).domainSize(), "one rack");
        assertEquals(64, rack(72).forJob(128).domainSize(), "two segments of 16 trays, one per rack");
        assertEquals(64, rack(72).forJob(256).domainSize());
        assertEquals(72, rack(72).forJob(144).domainSize(), "36 trays are no whole number of 16-tray segments: racks in order");
        assertEquals(32, rack(36).forJob(64).domainSize(), "NVL36: segments of 8 trays");
        assertEquals(36, rack(36).forJob(72).domainSize(), "two full NVL36 racks");
        Links hgx = new Links(8, 8, true, false, 4, 450e9, 5, 63e9, true, 8 * 50e9, Links.Transport.RDMA, 8, "400 Gb/s", null, null, 0);
        assertEquals(8, hgx.forJob(1024).domainSize(), "a node-sized domain is filled in order");
        assertEquals(144, rack(72).forJob(144).jobGpus());
    }

    @Test
    void exactTiersAndSecondsForAStraddlingGroupAndOneInsideARack() {
        double s = 1e9;                                        // 1 GB of gradients per rank, at line rate (no efficiencies)
        // 144 GPUs fill two racks in order: the all-reduce of 4 ranks 8 apart at ranks 64–95 leaves the rack at 72:
        // 2·3/4·1 GB = 1.5 GB through the one member below the boundary's 50 GB/s NIC
        CollectiveCost across = CollectiveCost.price(rack(72).forJob(144), null, Map.of(), Collective.ALL_REDUCE, 4, 8, s);
        assertEquals(Tier.NETWORK, across.tier());
        assertEquals(1, across.local());
        assertEquals(50e9, across.lineRate(), 1);
        assertEquals(CollectiveCost.Limit.NICS, across.limit());
        assertEquals(1.5e9 / 50e9, across.bandwidthSeconds(), 1e-12, "30 ms");
        // + NCCL's latency of a ring all-reduce of 4 ranks on 4 nodes: (8.4 − 2 × 3.4 + 8 × 14) × 1.4 µs
        assertEquals(159.04e-6, across.latency(), 1e-12);
        // 128 GPUs in two 64-GPU segments, and 64 GPUs in one rack: the same group on NVLink 5, 1.5 GB at 900 GB/s
        for (long g : new long[] {64, 128}) {
            CollectiveCost inside = CollectiveCost.price(rack(72).forJob(g), null, Map.of(), Collective.ALL_REDUCE, 4, 8, s);
            assertEquals(Tier.NVLINK, inside.tier(), g + " GPUs");
            assertEquals(1.5e9 / 900e9, inside.bandwidthSeconds(), 1e-12, "1.67 ms");
            // + NCCL's latency inside one NVLink domain (one node to NCCL): 8.4 + 6 × 3.4 µs
            assertEquals(28.8e-6, inside.latency(), 1e-12);
        }
        // a pipeline's sends leave the segment through one GPU's own NIC
        CollectiveCost send = CollectiveCost.price(rack(72).forJob(128), null, Map.of(), Collective.SEND, 8, 16, s);
        assertEquals(Tier.NETWORK, send.tier());
        assertEquals(s / 50e9, send.bandwidthSeconds(), 1e-12);
        assertEquals(22.4e-6, send.latency(), 1e-12, "one network step: 8.4 + 14 µs");
        // the tier table's NVLink row prices the group as if it fitted one rack: no job's rank order there
        assertEquals(0, rack(72).forJob(144).withDomain(8, 72).jobGpus());
        assertEquals(144, rack(72).forJob(144).withNics(50e9, Links.Transport.RDMA, "x").jobGpus());
    }

    @Test
    void findingTheFewestMembersIsBoundedByTheBlockNotTheJob() {
        // a million GPUs in racks of 72: the boundary offsets repeat every n·stride ÷ gcd racks; the answer is that of 144
        assertEquals(Tier.membersPerDomain(4, 8, 72, 144), Tier.membersPerDomain(4, 8, 72, 72L * 1_000_000));
        assertEquals(Tier.NETWORK, Tier.of(4, 8, 4, 72, true, 72L * 1_000_000));
    }
}
