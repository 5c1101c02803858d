package dev.gpulint.read;

import dev.gpulint.core.Finding;
import dev.gpulint.core.Level;
import dev.gpulint.core.Span;
import dev.gpulint.read.csv.CsvReader;
import dev.gpulint.read.dsl.DslReader;
import dev.gpulint.read.evidence.EvidenceReader;
import dev.gpulint.read.json.JsonReader;
import dev.gpulint.read.toml.TomlReader;
import dev.gpulint.tree.Document;
import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.ScalarNode;
import dev.gpulint.read.yaml.Templates;
import dev.gpulint.read.yaml.YamlReader;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * The one place a file's syntax is decided: which reader reads a file, by its name, and which
 * files of a syntax are gpulint's at all (a CSV file only when it lists DCGM fields; JSON that
 * does not parse only when it looks like a DeepSpeed configuration). Nothing a file contains may
 * stop the run: too deep a nesting, or any failure inside a reader, becomes a SYN001 finding for
 * that file. What the documents of a file are (a native manifest, or another format's
 * configuration) is decided later, from their content ({@link Manifests}, and the adapters).
 */
public final class Readers {

    /** A syntax gpulint reads: the endings of its files' names, and how a file of it is read. */
    public record Syntax(String name, List<String> extensions, Function<SourceFile, ReadResult> reader) {
        boolean names(String lowerCaseFileName) {
            return extensions.stream().anyMatch(lowerCaseFileName::endsWith);
        }
    }

    private static final Syntax YAML = new Syntax("YAML", List.of(".yaml", ".yml"), Readers::yaml);

    private static final Syntax SHELL = new Syntax("shell", List.of(".sh", ".bash", ".sbatch", ".slurm", ".slrm", ".sb"), Readers::shell);

    /**
     * The syntaxes, by file name: the one list of extensions gpulint reads. The CLI's folder walk
     * ({@link #isCandidate}), the Maven plugin's default includes ({@link #includeGlobs}) and the
     * pre-commit hook's {@code files:} pattern ({@link #preCommitPattern}, checked by a test) all come
     * from it. A file named otherwise but given explicitly is read as YAML, or as a shell script
     * when it starts with a shell's {@code #!} line.
     */
    public static final List<Syntax> SYNTAXES = List.of(
            new Syntax("DSL", List.of(".topo"), f -> guarded(f, "DSL", false, new DslReader()::read)),
            YAML,
            new Syntax("JSON", List.of(".json"), Readers::json),
            new Syntax("CSV", List.of(".csv"), Readers::csv),
            SHELL,
            new Syntax("TOML", List.of(".toml"), Readers::toml));

    /**
     * The key of the one entry of a shell script's document: the script's whole text as one
     * scalar, which the launch-script adapter reads with the shell scan (a reader cannot depend
     * on it). No YAML, JSON or TOML file yields this key unquoted.
     */
    public static final String SCRIPT_KEY = "#!script";

    private Readers() {}

    /** Files gpulint reads by name when it walks a folder; everything else is left alone. */
    public static boolean isCandidate(String fileName) {
        return named(fileName).isPresent() || EvidenceReader.named(fileName).isPresent();
    }

    /**
     * A .txt or .log file found in a folder is gpulint's only when {@code head}, its first
     * characters, shows a tool output gpulint reads (docs/evidence.md); other such files are
     * skipped quietly.
     */
    public static boolean isEvidence(String fileName, String head) {
        return EvidenceReader.sniffedByContent(fileName) && EvidenceReader.sniff(head).isPresent();
    }

    /** Every extension of {@link #SYNTAXES}, in order, without the dot. */
    public static List<String> extensions() {
        return SYNTAXES.stream().flatMap(s -> s.extensions().stream()).map(e -> e.substring(1)).toList();
    }

    /** The Maven plugin's default includes: every extension, in any folder. */
    public static List<String> includeGlobs() {
        return extensions().stream().map(e -> "**/*." + e).toList();
    }

    /** The pre-commit hook's {@code files:} pattern (a Python regular expression on the path). */
    public static String preCommitPattern() {
        return "\\.(" + String.join("|", extensions()) + ")$";
    }

    /** The syntax a file's name says, if it names one of gpulint's. */
    public static Optional<Syntax> named(String fileName) {
        String n = fileName.toLowerCase(Locale.ROOT);
        return SYNTAXES.stream().filter(s -> s.names(n)).findFirst();
    }

    /**
     * Reads one file with the reader its name picks. A file whose name has no extension is read as
     * YAML (a shell script when its first line is a shell's #!); one whose extension names no format gpulint reads (.txt, .py, ...) gets a SYN006 note
     * and is skipped: it can only arrive here when it was named explicitly.
     */
    public static ReadResult read(SourceFile f) {
        Optional<Syntax> syntax = named(f.displayPath());
        if (syntax.isPresent()) return syntax.get().reader().apply(f);
        if (EvidenceReader.sniffedByContent(f.displayPath())) return caught(f, "evidence", EvidenceReader::read);
        String base = f.displayPath().substring(f.displayPath().lastIndexOf('/') + 1);
        int dot = base.lastIndexOf('.');
        if (dot <= 0 || dot == base.length() - 1) return (shebang(f.text()) ? SHELL : YAML).reader().apply(f);
        String ext = base.substring(dot);
        List<String> known = SYNTAXES.stream().flatMap(s -> s.extensions().stream()).toList();
        Finding note = new Finding("SYN006", Level.NOTE, Span.at(f.displayPath(), 1, 1), "gpulint does not read "
                + (ext.length() > 16 ? ext.substring(0, 16) + "…" : ext) + " files (yet), so '" + f.displayPath() + "' was skipped; it reads "
                + String.join(", ", known.subList(0, known.size() - 1)) + " and " + known.get(known.size() - 1) + " files",
                List.of(), "format");
        return new ReadResult(f, List.of(), List.of(note), false);
    }

    /** A first line {@code #!/bin/bash}, {@code #!/usr/bin/env bash}, {@code #!/bin/sh -e}...: a shell script. */
    static boolean shebang(String text) {
        if (!text.startsWith("#!")) return false;
        int nl = text.indexOf('\n');
        String first = (nl < 0 ? text : text.substring(0, nl)).trim();
        if (first.length() > 200) return false;
        String[] words = first.substring(2).trim().split("\\s+");
        String prog = words[0].substring(words[0].lastIndexOf('/') + 1);
        if (prog.equals("env") && words.length > 1) prog = words[words.length > 2 && words[1].startsWith("-") ? 2 : 1];
        return prog.equals("sh") || prog.equals("bash") || prog.equals("dash") || prog.equals("zsh") || prog.equals("ksh");
    }

    /**
     * A shell script: its whole text as one document ({@link #SCRIPT_KEY}), for the launch-script
     * adapter to scan. Whether it is a training launch is decided there; one that is not is skipped
     * quietly.
     */
    private static ReadResult shell(SourceFile f) {
        String text = f.text();
        int[] starts = dev.gpulint.core.LineBreaks.starts(text);
        int lines = starts.length, lastLineStart = starts[lines - 1];
        Span all = new Span(f.displayPath(), 1, 1, lines, text.length() - lastLineStart + 1);
        MappingNode root = new MappingNode(List.of(new MappingNode.Entry(new ScalarNode(SCRIPT_KEY, false, Span.at(f.displayPath(), 1, 1)),
                new ScalarNode(text, true, all))), all);
        return new ReadResult(f, List.of(), List.of(), false, List.of(new Document(f.displayPath(), 0, root)));
    }

    /**
     * TOML is read only when it is a torchtitan job configuration (a {@code [parallelism]} table, or, in torchtitan's
     * layout before late 2024, a {@code [training]} table with a {@code *_parallel_degree} key): other TOML
     * (pyproject.toml, Cargo.toml), well-formed or not, is not gpulint's.
     */
    private static ReadResult toml(SourceFile f) {
        boolean torchtitan = f.text().contains("[parallelism]") || f.text().contains("_parallel_degree");
        if (!f.text().contains("parallelism") && !torchtitan) return notOurs(f);
        ReadResult r = guarded(f, "TOML", false, new TomlReader()::read);
        if (r.failed() && !torchtitan) return notOurs(f);
        if (!r.failed() && r.foreign().stream().noneMatch(d -> d.root().get("parallelism").orElse(null) instanceof MappingNode
                || (d.root().get("training").orElse(null) instanceof MappingNode t
                    && t.entries().stream().anyMatch(e -> e.key().text().endsWith("_parallel_degree"))))) {
            return notOurs(f);
        }
        return r;
    }

    /** A well-formed file that is not gpulint's: skipped quietly. */
    private static ReadResult notOurs(SourceFile f) {
        return new ReadResult(f, List.of(), List.of(), false);
    }

    /** The nesting guard before a recursive reader, and any failure inside it as SYN001. */
    private static ReadResult guarded(SourceFile f, String syntax, boolean yaml, Function<SourceFile, ReadResult> reader) {
        var tooDeep = NestingGuard.check(f, yaml);
        if (tooDeep.isPresent()) return new ReadResult(f, List.of(), List.of(tooDeep.get()), true);
        return caught(f, syntax, reader);
    }

    private static ReadResult caught(SourceFile f, String syntax, Function<SourceFile, ReadResult> reader) {
        try {
            return reader.apply(f);
        } catch (StackOverflowError e) {
            return unreadable(f, "nesting is too deep to read");
        } catch (RuntimeException e) {
            return unreadable(f, "the " + syntax + " reader failed (" + e.getClass().getSimpleName() + "); please report this file");
        }
    }

    /**
     * YAML, or a Helm template's view (its chart's values substituted, or its literal text): a template that still
     * does not parse is skipped quietly, never an error (it is not YAML until rendered).
     */
    private static ReadResult yaml(SourceFile f) {
        if (!Templates.looksLikeTemplate(f)) return guarded(f, "YAML", true, new YamlReader()::read);
        // in a chart with a values.yaml: its simple value expressions substituted (read.yaml.HelmChart)
        var rendered = dev.gpulint.read.yaml.HelmChart.render(f);
        SourceFile literal = new SourceFile(f.path(), f.displayPath(),
                rendered.map(dev.gpulint.read.yaml.HelmChart.Rendered::text).orElseGet(() -> Templates.literalView(f.text())));
        ReadResult r = guarded(literal, "YAML", true, new YamlReader()::read);
        if (r.failed()) return notOurs(f);
        if (rendered.isPresent()) r = dev.gpulint.read.yaml.HelmChart.mapBack(r, rendered.get());
        return new ReadResult(f, r.documents(), r.problems(), r.manifest(), r.foreign());
    }

    /** Only dcgm-exporter counter lists and nvidia-smi --query-gpu captures are read; other CSV files are not gpulint's. */
    private static ReadResult csv(SourceFile f) {
        // nvidia-smi --query-gpu=... --format=csv saved as .csv: GPU telemetry (docs/evidence.md)
        if (EvidenceReader.sniff(f.text()).filter(k -> k == dev.gpulint.read.evidence.Evidence.Kind.SMI_CSV).isPresent()) {
            return caught(f, "evidence", EvidenceReader::read);
        }
        if (!f.text().contains("DCGM_FI_") && !f.text().contains("dcgm_fi_")) return notOurs(f);   // DCGM 1.x names are lower case
        return caught(f, "CSV", new CsvReader()::read);
    }

    /** JSON that does not parse is reported only when it looks like a DeepSpeed configuration: other JSON is not gpulint's. */
    private static ReadResult json(SourceFile f) {
        ReadResult r = caught(f, "JSON", new JsonReader()::read);
        if (r.failed() && !looksLikeDeepSpeed(f.text())) return notOurs(f);
        return r;
    }

    static boolean looksLikeDeepSpeed(String text) {
        return text.contains("\"train_batch_size\"") || text.contains("\"train_micro_batch_size_per_gpu\"")
                || text.contains("\"zero_optimization\"");
    }

    private static ReadResult unreadable(SourceFile f, String why) {
        return new ReadResult(f, List.of(), List.of(Finding.of("SYN001", Span.at(f.displayPath(), 1, 1),
                "syntax", "'" + f.displayPath() + "' could not be read: " + why)), true);
    }
}
