package dev.gpulint.read.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.gpulint.read.ReadResult;
import dev.gpulint.read.SourceFile;
import dev.gpulint.core.Finding;
import dev.gpulint.tree.Document;
import dev.gpulint.tree.ListNode;
import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.Node;
import dev.gpulint.tree.ScalarNode;
import dev.gpulint.core.Span;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The JSON front end (DeepSpeed configurations): Jackson's streaming parser, turned into the same
 * document tree as YAML, with the span of every value. Jackson types never leave this package.
 * A JSON file is a candidate only; whether it is read as a job is the adapters' decision.
 */
public final class JsonReader {
    private static final JsonFactory FACTORY = JsonFactory.builder().build();

    public ReadResult read(SourceFile file) {
        String name = file.displayPath();
        String text = file.text().startsWith("\uFEFF") ? " " + file.text().substring(1) : file.text();
        try (JsonParser p = FACTORY.createParser(text)) {
            p.enable(JsonParser.Feature.ALLOW_COMMENTS);
            JsonToken t = p.nextToken();
            if (t == null) return new ReadResult(file, List.of(), List.of(), false);
            List<Finding> duplicates = new ArrayList<>();
            Node root = value(p, t, name, "", duplicates);
            if (p.nextToken() != null) throw new JsonParseException(p, "more than one JSON value in the file");
            if (!(root instanceof MappingNode m)) return new ReadResult(file, List.of(), List.of(), false);
            return new ReadResult(file, List.of(), duplicates, false, List.of(new Document(name, 0, m)));
        } catch (JsonParseException e) {
            JsonLocation l = e.getLocation();
            Span at = l == null ? Span.at(name, 1, 1) : Span.at(name, l.getLineNr(), l.getColumnNr());
            String msg = e.getOriginalMessage() == null ? "malformed JSON" : e.getOriginalMessage().replaceAll("\\s+", " ");
            return new ReadResult(file, List.of(), List.of(Finding.of("SYN001", at, "syntax", "JSON syntax error: " + msg)), true);
        } catch (IOException e) {
            return new ReadResult(file, List.of(), List.of(Finding.of("SYN001", Span.at(name, 1, 1), "syntax",
                    "JSON could not be read: " + e.getMessage())), true);
        }
    }

    /**
     * A key given twice in one object is SYN002 at the second (DeepSpeed rejects such a file, and
     * Jackson would silently keep one of them); the first value is kept, as for YAML.
     */
    private static Node value(JsonParser p, JsonToken t, String file, String path, List<Finding> duplicates) throws IOException {
        JsonLocation start = p.currentTokenLocation();
        switch (t) {
            case START_OBJECT -> {
                List<MappingNode.Entry> entries = new ArrayList<>();
                java.util.Map<String, ScalarNode> seen = new java.util.HashMap<>();
                for (JsonToken k = p.nextToken(); k != JsonToken.END_OBJECT; k = p.nextToken()) {
                    JsonLocation kl = p.currentTokenLocation();
                    String key = p.currentName();
                    ScalarNode keyNode = new ScalarNode(key, true, span(file, kl, key.length() + 2));
                    Node v = value(p, p.nextToken(), file, path + "/" + key, duplicates);
                    ScalarNode first = seen.putIfAbsent(key, keyNode);
                    if (first == null) {
                        entries.add(new MappingNode.Entry(keyNode, v));
                    } else {
                        duplicates.add(Finding.of("SYN002", keyNode.span(), path + "/" + key + "#dup",
                                "'" + key + "' appears twice in " + (path.isEmpty() ? "the file" : "'" + path.substring(1) + "'")
                                        + " (first at line " + first.span().startLine() + "); DeepSpeed rejects duplicate keys: "
                                        + "remove one of them").withRelated(first.span(), "first '" + key + "' here"));
                    }
                }
                return new MappingNode(entries, to(file, start, p.currentTokenLocation()));
            }
            case START_ARRAY -> {
                List<Node> items = new ArrayList<>();
                for (JsonToken k = p.nextToken(); k != JsonToken.END_ARRAY; k = p.nextToken()) items.add(value(p, k, file, path + "/" + items.size(), duplicates));
                return new ListNode(items, to(file, start, p.currentTokenLocation()));
            }
            case VALUE_STRING -> {
                String s = p.getText();
                return new ScalarNode(s, true, span(file, start, s.length() + 2));
            }
            default -> {
                String s = p.getText();
                return new ScalarNode(s, false, span(file, start, s.length()));
            }
        }
    }

    private static Span span(String file, JsonLocation l, int length) {
        return new Span(file, l.getLineNr(), l.getColumnNr(), l.getLineNr(), l.getColumnNr() + length);
    }

    private static Span to(String file, JsonLocation a, JsonLocation b) {
        return new Span(file, a.getLineNr(), a.getColumnNr(), b.getLineNr(), b.getColumnNr() + 1);
    }
}
