package dev.gpulint.settle;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.gpulint.core.Fingerprints;
import dev.gpulint.core.RegularFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * A baseline is a SARIF file of an earlier run (`--write-baseline`): the fingerprints of its results
 * are accepted, and only findings with other fingerprints are reported. Fingerprints come from the rule,
 * the file and the logical identity of what was found, not line numbers, so editing lines above a
 * finding keeps it in the baseline.
 *
 * <p>A file that is no SARIF 2.1.0 log (empty, another SARIF version, another JSON shape) is refused
 * with {@link NotABaseline}: accepting it would silently report every finding as new, or none.
 */
public final class Baseline {
    private Baseline() {}

    /**
     * Whether a finding can never be accepted by a baseline: a file that does not parse or cannot be read (SYN001)
     * and a failure of gpulint itself or of a rule (TOOL001). Its file was not linted, so its other findings are
     * unknown; as ruff reports syntax errors whatever its ignores say, these are reported (and the run exits 2)
     * even when a baseline holds their fingerprint, and {@code --write-baseline} does not record them.
     */
    public static boolean never(dev.gpulint.core.Finding f) {
        return f.ruleId().equals("SYN001") || f.ruleId().equals("TOOL001");
    }

    /** {@code result} as a baseline records it: without the findings a baseline never accepts ({@link #never}). */
    public static dev.gpulint.core.LintResult recordable(dev.gpulint.core.LintResult result) {
        if (result.findings().stream().noneMatch(Baseline::never)) return result;
        return new dev.gpulint.core.LintResult(result.findings().stream().filter(f -> !never(f)).toList(), result.files(),
                result.inputFailed(), result.baselined(), result.paths());
    }

    /** The file is readable but is not a SARIF 2.1.0 log. */
    public static final class NotABaseline extends IOException {
        public NotABaseline(String message) { super(message); }
    }

    /**
     * The most fingerprints a baseline may hold (about 250 MB of memory): a run that finds more writes no
     * baseline ({@link #tooMany}), so every baseline gpulint writes is one it reads back.
     */
    public static final int MAX_FINGERPRINTS = 2_000_000;

    /** Why a run with {@code findings} findings cannot be written as a baseline, or null. */
    public static String tooMany(long findings) {
        return findings <= MAX_FINGERPRINTS ? null : findings + " findings are more than a baseline holds (" + MAX_FINGERPRINTS
                + "); lint the project in parts, or turn rules off in .gpulint.yaml";
    }

    /**
     * The fingerprints of a baseline, read as a stream: only they are kept, so a baseline of any size
     * is read in time linear in its length and memory bounded by {@link #MAX_FINGERPRINTS}.
     */
    public static Set<String> read(Path sarif) throws IOException {
        return read(sarif, MAX_FINGERPRINTS);
    }

    static Set<String> read(Path sarif, int maxFingerprints) throws IOException {
        RegularFiles.requireRegular(sarif);
        Set<String> out = new LinkedHashSet<>();
        String version = null;
        boolean runs = false;
        try (java.io.InputStream in = java.nio.file.Files.newInputStream(sarif);
             JsonParser p = new JsonFactory().createParser(new java.io.BufferedInputStream(in, 1 << 16))) {
            JsonToken first = p.nextToken();
            if (first == null) throw new NotABaseline("it is empty; a baseline is a SARIF 2.1.0 file written by --write-baseline");
            if (first != JsonToken.START_OBJECT) throw new NotABaseline("it is not a SARIF log (a JSON object with version and runs)");
            for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
                String field = p.currentName();
                JsonToken v = p.nextToken();
                if (field.equals("version")) {
                    if (v != JsonToken.VALUE_STRING) throw new NotABaseline("its 'version' is not a string");
                    version = p.getText();
                } else if (field.equals("runs")) {
                    if (v != JsonToken.START_ARRAY) throw new NotABaseline("its 'runs' is not a list");
                    runs = true;
                    fingerprints(p, out, maxFingerprints);
                } else {
                    p.skipChildren();
                }
            }
        } catch (com.fasterxml.jackson.core.exc.StreamConstraintsException e) {
            throw new NotABaseline("it is not a SARIF log gpulint wrote (" + e.getOriginalMessage() + ")");
        } catch (JsonParseException e) {
            throw new NotABaseline("it is not valid JSON (" + e.getOriginalMessage() + ")");
        }
        if (version == null || !runs) throw new NotABaseline("it is not a SARIF log (a JSON object with version and runs)");
        if (!version.equals("2.1.0")) {
            throw new NotABaseline("it is SARIF " + version + "; baselines are SARIF 2.1.0 (write one with --write-baseline)");
        }
        return out;
    }

    /** The fingerprints anywhere inside the runs array, up to its end. */
    private static void fingerprints(JsonParser p, Set<String> out, int max) throws IOException {
        int depth = 1;
        for (JsonToken t = p.nextToken(); t != null && depth > 0; t = p.nextToken()) {
            if (t.isStructStart()) depth++;
            else if (t.isStructEnd()) depth--;
            else if (t == JsonToken.FIELD_NAME && Fingerprints.KEY.equals(p.currentName())) {
                JsonToken v = p.nextToken();
                if (v == JsonToken.VALUE_STRING && out.add(p.getText()) && out.size() > max) {
                    throw new NotABaseline("it holds more than " + max + " fingerprints, more than gpulint reads from a baseline");
                }
                else if (v.isStructStart()) p.skipChildren();
            }
        }
    }
}
