package dev.gpulint.lint;

import dev.gpulint.bind.Binder;
import dev.gpulint.bind.adapt.Adapters;
import dev.gpulint.core.Finding;
import dev.gpulint.core.Span;
import dev.gpulint.read.ReadResult;
import dev.gpulint.read.Readers;
import dev.gpulint.read.SourceFile;
import dev.gpulint.spec.Model;
import dev.gpulint.spec.ModelSink;
import dev.gpulint.tree.Document;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The containment of one lint run: whatever a stage throws (an exception, a StackOverflowError, an
 * OutOfMemoryError, any Throwable) becomes a finding, never a stack trace. A failure while reading or
 * binding one file costs that file only (a finding naming it); a failure in a shared stage (linking,
 * derive, the rules) costs that stage's findings (a finding naming the stage). Either way the run
 * exits 2, and every other finding is still reported.
 */
final class Contained {
    /** Where findings about gpulint's own stages are placed. */
    static final Span TOOL = Span.at("gpulint", 1, 1);

    private final List<Finding> problems = new ArrayList<>();

    /** The failures met so far, as findings. */
    List<Finding> problems() { return problems; }

    boolean failed() { return !problems.isEmpty(); }

    /** Reads one file; a failure of its reader (a bug in gpulint, not in the file) is a TOOL001 finding for it. */
    static ReadResult read(SourceFile f) {
        try {
            return Readers.read(f);
        } catch (Throwable t) {
            return new ReadResult(f, List.of(), List.of(Finding.of("TOOL001", Span.at(f.displayPath(), 1, 1), "syntax",
                    "'" + f.displayPath() + "' could not be read: " + describe(t) + "; " + remedy(t, "please report this file"))), true);
        }
    }

    /** Runs a shared stage; when it fails, its result is {@code fallback} and a finding names the stage. */
    <T> T stage(String name, Supplier<T> body, T fallback) {
        try {
            return body.get();
        } catch (Throwable t) {
            problems.add(Finding.of("TOOL001", TOOL, "stage/" + name, "the " + name + " stage failed (" + describe(t)
                    + ") and was skipped: its findings are missing; " + remedy(t, "please report this with the files linted")));
            return fallback;
        }
    }

    /** Binds the native manifests; when binding them together fails, file by file, and a file that fails is a finding. */
    Model bind(List<Document> documents) {
        try {
            return new Binder().bind(documents);
        } catch (Throwable together) {
            Map<String, List<Document>> byFile = new LinkedHashMap<>();
            for (Document d : documents) byFile.computeIfAbsent(d.file(), k -> new ArrayList<>()).add(d);
            ModelSink all = new ModelSink();
            for (var e : byFile.entrySet()) {
                try {
                    all.addAll(new Binder().bind(e.getValue()));
                } catch (Throwable t) {
                    problems.add(fileFailed(e.getKey(), "bound", t));
                }
            }
            return all.build();
        }
    }

    /** The adapters (other formats), contained the same way: a file whose adapter fails is a finding. */
    Model adapt(List<Adapters.Input> inputs) {
        try {
            return Adapters.bind(inputs);
        } catch (Throwable together) {
            ModelSink all = new ModelSink();
            for (Adapters.Input in : inputs) {
                try {
                    all.addAll(Adapters.bind(List.of(in)));
                } catch (Throwable t) {
                    problems.add(fileFailed(in.file().displayPath(), "read as its format", t));
                }
            }
            return all.build();
        }
    }

    private static Finding fileFailed(String file, String what, Throwable t) {
        return Finding.of("TOOL001", Span.at(file, 1, 1), "syntax", "'" + file + "' could not be " + what + ": "
                + describe(t) + "; " + remedy(t, "please report this file"));
    }

    /**
     * What the user can do: memory is theirs to give (a fleet inventory needs about 3 KB of heap per node group that
     * does not fold, measured with bench/bench.py --distinct: the parsed tree and the bound node group live together
     * while binding, facts and rule-engine handles while the rules run; README "Bad input and limits"); any other failure is gpulint's to fix, so it asks for a report.
     */
    static String remedy(Throwable t, String report) {
        if (t instanceof OutOfMemoryError) {
            return "give gpulint more memory, e.g. JAVA_TOOL_OPTIONS=-Xmx8g: a fleet file needs about 3 KB per node group that does not "
                    + "fold (1,000,000 distinct node groups: about 3 GB), about 100 bytes per one written exactly like an earlier one, so "
                    + "write alike node groups alike, or split the fleet over several files (README, Bad input and limits)";
        }
        return report;
    }

    /** A throwable in words: its kind, and what ran out for the JVM's own errors. */
    static String describe(Throwable t) {
        if (t instanceof StackOverflowError) return "StackOverflowError: nesting or recursion too deep";
        if (t instanceof OutOfMemoryError) return "OutOfMemoryError: it needs more memory than gpulint has";
        String m = t.getMessage();
        String first = m == null ? "" : m.lines().findFirst().orElse("").trim();
        if (first.length() > 200) first = first.substring(0, 200) + "...";
        return t.getClass().getSimpleName() + (first.isEmpty() ? "" : ": " + first);
    }
}
