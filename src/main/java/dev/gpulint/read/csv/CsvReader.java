package dev.gpulint.read.csv;

import dev.gpulint.read.ReadResult;
import dev.gpulint.read.SourceFile;
import dev.gpulint.tree.Document;
import dev.gpulint.tree.ListNode;
import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.Node;
import dev.gpulint.tree.ScalarNode;
import dev.gpulint.core.Span;
import java.util.ArrayList;
import java.util.List;

/**
 * The CSV front end, for dcgm-exporter counter lists ({@code field, type, help}). A file becomes
 * one document whose root maps {@code csv} to a list of rows, each a list of cells with their
 * spans; {@code #} starts a comment line, blank lines are skipped, cells are trimmed. Quoting is
 * the plain double-quote kind.
 */
public final class CsvReader {

    public ReadResult read(SourceFile file) {
        return new ReadResult(file, List.of(), List.of(), false, List.of(document(file.displayPath(), file.text(), 1, 1)));
    }

    /** Rows of {@code text}, whose first character sits at line {@code line}, column {@code column} of {@code file}. */
    public static Document document(String file, String text, int line, int column) {
        List<Node> rows = new ArrayList<>();
        String[] lines = text.split("\r?\n|\r", -1);
        for (int i = 0; i < lines.length; i++) {
            String l = lines[i];
            int ln = line + i;
            int col0 = i == 0 ? column : 1;
            String trimmed = l.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("#")) continue;
            List<Node> cells = new ArrayList<>();
            int p = 0;
            while (p <= l.length()) {
                int end = p;
                boolean inQuote = false;
                while (end < l.length() && (inQuote || l.charAt(end) != ',')) {
                    if (l.charAt(end) == '"') inQuote = !inQuote;
                    end++;
                }
                String raw = l.substring(p, end);
                int lead = 0;
                while (lead < raw.length() && Character.isWhitespace(raw.charAt(lead))) lead++;
                String cell = raw.strip();
                boolean quoted = cell.length() >= 2 && cell.startsWith("\"") && cell.endsWith("\"");
                String value = quoted ? cell.substring(1, cell.length() - 1).replace("\"\"", "\"") : cell;
                int c = col0 + p + lead;
                cells.add(new ScalarNode(value, quoted, new Span(file, ln, c, ln, c + cell.length())));
                p = end + 1;
            }
            rows.add(new ListNode(cells, new Span(file, ln, col0, ln, col0 + l.length())));
        }
        Span all = new Span(file, line, column, line + lines.length - 1, 1);
        ScalarNode key = new ScalarNode("csv", false, Span.at(file, line, column));
        return new Document(file, 0, new MappingNode(List.of(new MappingNode.Entry(key, new ListNode(rows, all))), all));
    }
}
