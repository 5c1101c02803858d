package dev.gpulint.report;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import java.io.IOException;
import java.io.Writer;
import java.util.List;
import java.util.Map;

/** Writes nested maps and lists as JSON in insertion order: same input, same bytes. */
public final class JsonOut {
    private JsonOut() {}

    public static void write(Object value, Writer out) throws IOException {
        JsonGenerator g = new JsonFactory().createGenerator(out);
        DefaultPrettyPrinter pp = new DefaultPrettyPrinter().withObjectIndenter(new DefaultIndenter("  ", "\n"));
        g.setPrettyPrinter(pp);
        g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
        write(g, value);
        g.flush();
        out.write("\n");
    }

    private static void write(JsonGenerator g, Object v) throws IOException {
        if (v == null) {
            g.writeNull();
        } else if (v instanceof Map<?, ?> m) {
            g.writeStartObject();
            for (Map.Entry<?, ?> e : m.entrySet()) {
                g.writeFieldName(String.valueOf(e.getKey()));
                write(g, e.getValue());
            }
            g.writeEndObject();
        } else if (v instanceof List<?> l) {
            g.writeStartArray();
            for (Object o : l) write(g, o);
            g.writeEndArray();
        } else if (v instanceof Integer i) {
            g.writeNumber(i);
        } else if (v instanceof Long n) {
            g.writeNumber(n);
        } else if (v instanceof Double d) {
            g.writeNumber(d);
        } else if (v instanceof java.math.BigInteger b) {
            g.writeNumber(b);
        } else if (v instanceof Boolean b) {
            g.writeBoolean(b);
        } else {
            g.writeString(String.valueOf(v));
        }
    }
}
