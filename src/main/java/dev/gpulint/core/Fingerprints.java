package dev.gpulint.core;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Stable fingerprints: the rule, the file and the logical identity of what was
 * found (kind, name, field path), never the line number, so that editing lines
 * above a finding keeps its fingerprint (baselines, code-review dedup).
 */
public final class Fingerprints {
    private Fingerprints() {}

    public static final String KEY = "gpulint/v1";

    /** The fingerprint with the finding's file as displayed (a run without a project root: tests, one folder). */
    public static String of(Finding f) {
        return of(f, f.span().file());
    }

    /**
     * The fingerprint with the finding's file named {@code file}: the path relative to the project
     * root ({@link ProjectPaths#stable}), so that it does not depend on the working directory.
     */
    public static String of(Finding f, String file) {
        String identity = f.identity().isEmpty() || f.identity().equals("syntax")
                ? f.identity() + "|" + f.message() : f.identity();
        return sha256(f.ruleId() + "|" + file + "|" + identity).substring(0, 32);
    }

    static String sha256(String s) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(md.digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
