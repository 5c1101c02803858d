package dev.gpulint.facts;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class TrafficClassTest {
    @Test
    void theByteCarriesTheDscpInItsUpperSixBits() {
        assertEquals(6, TrafficClass.dscp(26));
        assertEquals(26, TrafficClass.dscp(106));      // 104 | ECT(0)
        assertEquals(63, TrafficClass.dscp(255));
        assertEquals(0, TrafficClass.priority(TrafficClass.dscp(26)));
        assertEquals(3, TrafficClass.priority(TrafficClass.dscp(104)));
        assertEquals(1, TrafficClass.priority(TrafficClass.dscp(41)));
    }

    @Test
    void theByteForAPriorityRoundTrips() {
        assertEquals(26, TrafficClass.dscpForPriority(3));
        assertEquals(104, TrafficClass.tcFor(26));
        assertEquals(106, TrafficClass.tcFor(26) + TrafficClass.ECT0);
        for (int p = 0; p < 8; p++) {
            int tc = TrafficClass.tcFor(TrafficClass.dscpForPriority(p));
            assertEquals(p, TrafficClass.priority(TrafficClass.dscp(tc)));
            assertEquals(p, TrafficClass.priority(TrafficClass.dscp(tc + TrafficClass.ECT0)));
        }
    }
}
