package dev.gpulint.lsp;

import dev.gpulint.core.Finding;
import dev.gpulint.core.Span;
import dev.gpulint.report.ReportOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.eclipse.lsp4j.DiagnosticCodeDescription;
import org.eclipse.lsp4j.Diagnostic;
import org.eclipse.lsp4j.DiagnosticRelatedInformation;
import org.eclipse.lsp4j.DiagnosticSeverity;
import org.eclipse.lsp4j.Location;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.Range;
import org.eclipse.lsp4j.jsonrpc.messages.Either;

/**
 * A settled finding as an LSP diagnostic: its range in UTF-16 code units ({@link Positions}), its level as the
 * severity (error, warning, and a note as information), the rule ID as its code, the rule's published help page as
 * its code description (only when one is configured, as SARIF's helpUri), the related locations as related
 * information, and "gpulint" as its source.
 */
final class Diagnostics {
    private Diagnostics() {}

    public static final String SOURCE = "gpulint";

    /** A file's URI and its text's positions (null: the file could not be read, places are taken as written). */
    record Place(String uri, Positions positions) {
        Range range(Span s) {
            if (positions != null) return positions.range(s);
            return new Range(new Position(s.startLine() - 1, s.startColumn() - 1), new Position(s.endLine() - 1, s.endColumn() - 1));
        }
    }

    static Diagnostic of(Finding f, Positions positions, ReportOptions report, Function<String, Place> places) {
        Diagnostic d = new Diagnostic(positions.range(f.span()), f.message(), severity(f), SOURCE, f.ruleId());
        String href = report.helpUri(f.ruleId());
        if (href != null) d.setCodeDescription(new DiagnosticCodeDescription(href));
        if (!f.related().isEmpty()) {
            List<DiagnosticRelatedInformation> related = new ArrayList<>();
            for (Finding.Related r : f.related()) {
                Place p = places.apply(r.span().file());
                related.add(new DiagnosticRelatedInformation(new Location(p.uri(), p.range(r.span())), r.message()));
            }
            d.setRelatedInformation(related);
        }
        return d;
    }

    static DiagnosticSeverity severity(Finding f) {
        if (f.level() == null) return DiagnosticSeverity.Warning;
        return switch (f.level()) {
            case ERROR -> DiagnosticSeverity.Error;
            case WARNING -> DiagnosticSeverity.Warning;
            case NOTE -> DiagnosticSeverity.Information;
        };
    }

    /** The rule ID a diagnostic of gpulint's carries, or null. */
    static String rule(Diagnostic d) {
        if (d.getCode() == null || !SOURCE.equals(d.getSource())) return null;
        Either<String, Integer> c = d.getCode();
        return c.isLeft() ? c.getLeft() : null;
    }
}
