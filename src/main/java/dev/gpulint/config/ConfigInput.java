package dev.gpulint.config;

import dev.gpulint.core.Finding;
import dev.gpulint.read.NestingGuard;
import dev.gpulint.read.ReadResult;
import dev.gpulint.read.SourceFile;
import dev.gpulint.read.yaml.YamlReader;
import dev.gpulint.tree.ListNode;
import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.Node;
import java.nio.file.FileSystems;
import java.nio.file.PathMatcher;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reading .gpulint.yaml as defensively as a manifest: the same nesting guard before the YAML
 * reader, a stack overflow as a finding, duplicate keys as SYN002, and globs that do not compile
 * as SYN002 at the value.
 */
final class ConfigInput {

    private ConfigInput() {}

    /** The configuration's documents, or a SYN001 when nesting is too deep to read. */
    static ReadResult read(SourceFile f) {
        var tooDeep = NestingGuard.check(f, true);
        if (tooDeep.isPresent()) return new ReadResult(f, List.of(), List.of(tooDeep.get()), true);
        try {
            return new YamlReader().readAll(f);
        } catch (StackOverflowError e) {
            return new ReadResult(f, List.of(), List.of(Finding.of("SYN001", dev.gpulint.core.Span.at(f.displayPath(), 1, 1),
                    "config", "nesting is too deep to read: gpulint stops reading " + f.displayPath())), true);
        }
    }

    /** SYN002 for every key given twice in one mapping, at the second, naming the first. */
    static void duplicates(Node n, String display, List<Finding> problems) {
        // an explicit stack: the guard above bounds depth, but a walk needs no recursion at all
        java.util.ArrayDeque<Node> todo = new java.util.ArrayDeque<>();
        todo.push(n);
        while (!todo.isEmpty()) {
            Node x = todo.pop();
            if (x instanceof MappingNode m) {
                Map<String, MappingNode.Entry> seen = new HashMap<>();
                for (MappingNode.Entry e : m.entries()) {
                    MappingNode.Entry first = seen.putIfAbsent(e.key().text(), e);
                    if (first != null) {
                        problems.add(Finding.of("SYN002", e.key().span(), "config/duplicate/" + e.key().text() + "@" + e.key().span().startLine(),
                                "key '" + e.key().text() + "' appears twice in " + display + " (first at line "
                                        + first.key().span().startLine() + "); the later one would silently win"));
                    }
                    if (e.value() != null) todo.push(e.value());
                }
            } else if (x instanceof ListNode l) {
                for (Node i : l.items()) todo.push(i);
            }
        }
    }

    /** The glob's matcher, or null with a SYN002 at the value when it does not compile ({@code [a-}, {@code {a,}). */
    static PathMatcher glob(String glob, Node at, String key, List<Finding> problems) {
        try {
            return FileSystems.getDefault().getPathMatcher("glob:" + glob);
        } catch (RuntimeException e) {
            String shown = glob.length() <= 80 ? glob : glob.substring(0, 76) + "…";
            problems.add(Finding.of("SYN002", at.span(), "config/" + key + "/glob",
                    "'" + shown + "' in '" + key + "' is not a valid glob (" + firstLine(e.getMessage()) + ")"));
            return null;
        }
    }

    private static String firstLine(String s) {
        if (s == null) return "malformed";
        int nl = s.indexOf('\n');
        String t = nl < 0 ? s : s.substring(0, nl);
        return t.length() <= 120 ? t : t.substring(0, 116) + "…";
    }
}
