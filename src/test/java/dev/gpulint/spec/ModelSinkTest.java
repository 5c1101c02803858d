package dev.gpulint.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.core.Finding;
import dev.gpulint.core.Span;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The one middle product from bind to derive: written item by item, joined in order, immutable once built. */
class ModelSinkTest {

    private static Specs.DcgmField field(String name, String file) {
        return new Specs.DcgmField(new Located<>(name, Span.at(file, 1, 1)), null, null, file);
    }

    private static Specs.MetricQuery query(String metric, String file) {
        return new Specs.MetricQuery(new Located<>(metric, Span.at(file, 2, 3)), "rate", "alert 'hot'", file);
    }

    @Test
    void modelsMadeApartJoinInTheOrderTheyAreAdded() {
        Finding f1 = Finding.of("SYN002", Span.at("a.yaml", 1, 1), "a", "first");
        Finding f2 = Finding.of("SYN007", Span.at("b.sh", 3, 1), "b", "second");
        Model a = new ModelSink().counter(field("DCGM_FI_DEV_GPU_UTIL", "a.yaml")).file("a.yaml").finding(f1).build();
        Model b = new ModelSink().counter(field("DCGM_FI_DEV_FB_USED", "b.yaml")).query(query("DCGM_FI_DEV_GPU_TEMP", "b.yaml"))
                .file("b.yaml").file("a.yaml").finding(f2).build();
        Model both = new ModelSink().addAll(a).addAll(b).build();
        assertEquals(List.of("DCGM_FI_DEV_GPU_UTIL", "DCGM_FI_DEV_FB_USED"), both.counters().stream().map(c -> c.name().value()).toList());
        assertEquals(List.of("DCGM_FI_DEV_GPU_TEMP"), both.queries().stream().map(q -> q.metric().value()).toList());
        assertEquals(List.of("a.yaml", "b.yaml"), both.files(), "a file is recognised once, where it was first");
        assertEquals(List.of(f1, f2), both.findings());
    }

    @Test
    void aBuiltModelDoesNotChangeWithItsSinkAndCannotBeChanged() {
        ModelSink sink = new ModelSink().counter(field("DCGM_FI_DEV_GPU_UTIL", "a.yaml"));
        Model before = sink.build();
        sink.counter(field("DCGM_FI_DEV_FB_USED", "a.yaml")).file("a.yaml");
        assertEquals(1, before.counters().size());
        assertTrue(before.files().isEmpty());
        assertEquals(2, sink.build().counters().size());
        assertThrows(UnsupportedOperationException.class, () -> before.counters().add(field("X", "x")));
    }

    @Test
    void findingsAndFilesAloneBindNothing() {
        ModelSink sink = new ModelSink().finding(Finding.of("SYN007", Span.at("run.sh", 2, 1), "x", "a variable")).file("run.sh");
        assertTrue(sink.bindsNothing());
        assertFalse(sink.query(query("DCGM_FI_DEV_GPU_TEMP", "r.yaml")).bindsNothing());
        assertTrue(new ModelSink().build().equals(Model.EMPTY));
    }
}
