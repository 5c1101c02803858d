package dev.gpulint.lsp;

import dev.gpulint.config.Config;
import dev.gpulint.core.Finding;
import dev.gpulint.app.Project;
import dev.gpulint.meta.RuleCatalog;
import dev.gpulint.read.Readers;
import dev.gpulint.report.ReportOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.lsp4j.Diagnostic;

/**
 * Lints the open documents as the command line lints the files it is given, each project in one run: the documents
 * under one {@code .gpulint.yaml} (or, without one, under one workspace folder) are linted together, with the
 * buffers' texts standing for their files wherever the run meets them (named, included, or looked up as a job's
 * cluster), so a job and its cluster, its evidence and the configuration see each other's unsaved edits. The
 * built-in rule base is compiled once per process and shared by every run.
 */
final class Lints {

    /** What one open document gets from a lint: its findings, its diagnostics, and the rules that explain them. */
    record FileReport(String uri, List<Finding> findings, List<Diagnostic> diagnostics, Positions positions, RuleCatalog rules,
                      String display, String text, Texts texts, Path base) {}

    private final ReportOptions report;
    private volatile List<Path> roots = List.of();
    /** The projects' clusters, read once and then as the disk changes (not on every keystroke). */
    private final dev.gpulint.lint.ClusterIndex clusters = new dev.gpulint.lint.ClusterIndex();

    Lints(ReportOptions report) {
        this.report = report;
    }

    /** The workspace folders: a document outside any configuration's folder is linted with the others of its folder. */
    void roots(List<Path> folders) { this.roots = List.copyOf(folders); }

    ReportOptions report() { return report; }

    dev.gpulint.lint.ClusterIndex clusters() { return clusters; }

    /** Lints every open document; the result has a report for each of them (an empty one when nothing is found). */
    Map<String, FileReport> lintAll(OpenDocuments docs) {
        List<OpenDocuments.Doc> all = docs.all();
        Map<Path, List<OpenDocuments.Doc>> groups = new LinkedHashMap<>();
        for (OpenDocuments.Doc d : all) groups.computeIfAbsent(base(d.path()), k -> new ArrayList<>()).add(d);
        Map<Path, String> overlay = docs.overlay();
        Map<String, FileReport> out = new HashMap<>();
        for (Map.Entry<Path, List<OpenDocuments.Doc>> g : groups.entrySet()) out.putAll(lint(g.getKey(), g.getValue(), docs, overlay));
        return out;
    }

    /** The folder a document is linted from: its configuration's, else its workspace folder, else its own. */
    Path base(Path file) {
        Path dir = file.getParent();
        Path config = dir == null ? null : Config.find(dir);
        if (config != null) return config.getParent();
        for (Path r : roots) if (file.startsWith(r)) return r;
        return dir == null ? file : dir;
    }

    private Map<String, FileReport> lint(Path base, List<OpenDocuments.Doc> group, OpenDocuments docs, Map<Path, String> overlay) {
        List<String> paths = new ArrayList<>();
        for (OpenDocuments.Doc d : group) {
            String name = d.path().getFileName().toString();
            if (!name.equals(Config.NAME) && Readers.isCandidate(name)) paths.add(d.path().toString());
        }
        // a configuration's rules run when it lies in a workspace folder the editor opened (or the allow list names it)
        var outcome = dev.gpulint.app.Checks.check(new Project(base).paths(paths).buffers(overlay).helpUriBase(report.helpUriBase())
                .session(roots, clusters).request());
        Map<Path, List<Finding>> byFile = new HashMap<>();
        for (Finding f : outcome.result().findings()) {
            if (f.suppressed()) continue;
            byFile.computeIfAbsent(base.resolve(f.span().file()).normalize(), k -> new ArrayList<>()).add(f);
        }
        Texts texts = new Texts(docs);
        Map<String, FileReport> out = new HashMap<>();
        for (OpenDocuments.Doc d : group) {
            List<Finding> found = byFile.getOrDefault(d.path(), List.of());
            Positions positions = new Positions(d.text());
            List<Diagnostic> diagnostics = new ArrayList<>();
            for (Finding f : found) diagnostics.add(Diagnostics.of(f, positions, report, related -> texts.place(base, related)));
            out.put(d.uri(), new FileReport(d.uri(), found, diagnostics, positions, outcome.rules(),
                    new dev.gpulint.lint.Discovery(Config.none(), base).display(d.path()), d.text(), texts, base));
        }
        return out;
    }

    /** The texts related locations point into: an open buffer's, else the file's on the disk (read once per lint). */
    static final class Texts {
        private final OpenDocuments docs;
        private final Map<Path, Positions> read = new HashMap<>();

        Texts(OpenDocuments docs) { this.docs = docs; }

        /** The URI and positions of a file named by a finding (relative to {@code base}). */
        Diagnostics.Place place(Path base, String file) {
            Path p = base.resolve(file).normalize();
            OpenDocuments.Doc open = docs.byPath(p);
            if (open != null) return new Diagnostics.Place(open.uri(), new Positions(open.text()));
            Positions pos = read.computeIfAbsent(p, Texts::fromDisk);
            return new Diagnostics.Place(p.toUri().toString(), pos);
        }

        private static Positions fromDisk(Path p) {
            try {
                if (Files.size(p) <= dev.gpulint.lint.Discovery.DEFAULT_MAX_FILE_SIZE) return new Positions(Files.readString(p));
            } catch (java.io.IOException | RuntimeException e) {
                // an unreadable or undecodable file: its places are taken as they are written
            }
            return null;
        }
    }
}
