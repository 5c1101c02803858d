package dev.gpulint.read.csv;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gpulint.read.SourceFile;
import dev.gpulint.tree.Document;
import dev.gpulint.tree.ListNode;
import dev.gpulint.tree.ScalarNode;
import org.junit.jupiter.api.Test;

/** The CSV front end, on a dcgm-exporter counter list (field, Prometheus type, help). */
class CsvReaderTest {

    private static final String COUNTERS = """
            # Format
            # DCGM FIELD, Prometheus metric type, help message

            DCGM_FI_DEV_SM_CLOCK,  gauge, SM clock frequency (in MHz).
            DCGM_FI_PROF_PCIE_TX_BYTES, counter, "The rate of data transmitted over the PCIe bus, in bytes"
            """;

    private static ListNode rows(Document d) { return (ListNode) d.root().get("csv").orElseThrow(); }

    private static ScalarNode cell(Document d, int row, int col) {
        return (ScalarNode) ((ListNode) rows(d).items().get(row)).items().get(col);
    }

    @Test
    void commentsAndBlankLinesAreSkippedAndCellsTrimmedWithTheirColumns() {
        Document d = new CsvReader().read(SourceFile.of("counters.csv", COUNTERS)).foreign().get(0);
        assertEquals(2, rows(d).items().size());
        ScalarNode type = cell(d, 0, 1);
        assertEquals("gauge", type.text());
        assertEquals(4, type.span().startLine());
        assertEquals(24, type.span().startColumn(), "after the comma and two spaces");
    }

    @Test
    void aQuotedCellKeepsItsCommas() {
        Document d = new CsvReader().read(SourceFile.of("counters.csv", COUNTERS)).foreign().get(0);
        ScalarNode help = cell(d, 1, 2);
        assertEquals("The rate of data transmitted over the PCIe bus, in bytes", help.text());
        assertEquals(3, ((ListNode) rows(d).items().get(1)).items().size());
    }

    @Test
    void anEmbeddedListIsPlacedWhereItStartsInItsFile() {
        Document d = CsvReader.document("values.yaml", "DCGM_FI_DEV_GPU_UTIL, gauge, GPU utilization (in %).", 12, 7);
        ScalarNode field = cell(d, 0, 0);
        assertEquals(12, field.span().startLine());
        assertEquals(7, field.span().startColumn());
    }
}
