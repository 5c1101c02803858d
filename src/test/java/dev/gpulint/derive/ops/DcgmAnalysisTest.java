package dev.gpulint.derive.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.core.Span;
import dev.gpulint.derive.Facts;
import dev.gpulint.facts.DcgmFieldFact;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.Specs;
import java.util.List;
import org.junit.jupiter.api.Test;

class DcgmAnalysisTest {
    private static final Span AT = Span.at("f", 1, 1);

    private static <T> Located<T> at(T v) { return new Located<>(v, AT); }

    private static List<DcgmFieldFact> facts(List<Specs.DcgmField> counters, List<Specs.MetricQuery> queries) {
        Facts out = new Facts();
        DcgmAnalysis.fields(counters, queries, out);
        return out.list().stream().map(DcgmFieldFact.class::cast).toList();
    }

    @Test
    void aCounterListRowCarriesItsTypeAndClass() {
        DcgmFieldFact f = facts(List.of(new Specs.DcgmField(at("DCGM_FI_DEV_NVLINK_TX_BYTES_TOTAL"), at(" Gauge "), null, "c.csv")),
                List.of()).get(0);
        assertEquals("COUNTER_LIST", f.getUse());
        assertEquals("gauge", f.getDeclaredType());
        assertEquals("CUMULATIVE", f.getFieldClass());
        assertEquals("the counter list", f.getOwner());
        assertEquals("", f.getFunction());
        assertFalse(f.isRangeFunction());
        assertTrue(f.isKnown());
        assertNull(f.getClosest());
    }

    @Test
    void aQueryCarriesItsFunctionAndOwner() {
        List<DcgmFieldFact> fs = facts(List.of(), List.of(
                new Specs.MetricQuery(at("dcgm_fi_dev_pcie_tx_throughput"), "irate", "alert 'PcieBusy'", "r.yaml"),
                new Specs.MetricQuery(at("DCGM_FI_DEV_PCIE_TX_THROUGHPUTT"), "avg_over_time", "record x", "r.yaml")));
        DcgmFieldFact lower = fs.get(0);
        assertEquals("QUERY", lower.getUse());
        assertTrue(lower.isKnown(), "names are compared in upper case");
        assertEquals("RATE", lower.getFieldClass());
        assertTrue(lower.isRangeFunction());
        assertEquals("alert 'PcieBusy'", lower.getOwner());
        assertNull(lower.getDeclaredType());
        DcgmFieldFact typo = fs.get(1);
        assertFalse(typo.isKnown());
        assertEquals("DCGM_FI_DEV_PCIE_TX_THROUGHPUT", typo.getClosest());
        assertEquals("OTHER", typo.getFieldClass());
        assertFalse(typo.isRangeFunction());
    }

    @Test
    void rangeFunctionsAreTheSixThatReadATotal() {
        assertEquals(6, DcgmFieldFact.RANGE_FUNCTIONS.size());
        for (String fn : List.of("rate", "irate", "increase", "delta", "idelta", "deriv")) assertTrue(DcgmFieldFact.RANGE_FUNCTIONS.contains(fn));
    }
}
