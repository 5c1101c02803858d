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

    /**
     * The fingerprint that does not depend on the working directory: the finding's file relative to the
     * project root, and, in what was found, every path of its file and of its related locations' files
     * as typed (jobs and clusters of other formats are named by their file: {@code job:k8s/a.yaml/...}
     * in samples/ is {@code job:samples/k8s/a.yaml/...} at the root) rewritten the same way, in one pass.
     */
    public static String of(Finding f, ProjectPaths paths) {
        String file = f.span().file();
        java.util.Map<String, String> stable = new java.util.HashMap<>();
        stable.put(file, paths.stable(file));
        for (Finding.Related r : f.related()) stable.putIfAbsent(r.span().file(), paths.stable(r.span().file()));
        stable.entrySet().removeIf(e -> e.getKey().isEmpty() || e.getKey().equals(e.getValue()));
        String identity = f.identity().isEmpty() || f.identity().equals("syntax") ? f.identity() + "|" + f.message() : f.identity();
        identity = rewrite(identity, stable);
        return sha256(f.ruleId() + "|" + paths.stable(file) + "|" + identity).substring(0, 32);
    }

    /**
     * {@code text} with every path of {@code paths}' keys written as its value, in one pass, the longest path first so
     * that "a.yaml" never rewrites a part of "x/a.yaml"; {@code text} itself when {@code paths} is empty.
     */
    public static String rewrite(String text, java.util.Map<String, String> paths) {
        return rewriter(paths).apply(text);
    }

    /** {@link #rewrite} with {@code paths}, made once for many texts. */
    public static java.util.function.UnaryOperator<String> rewriter(java.util.Map<String, String> paths) {
        if (paths.isEmpty()) return t -> t;
        String alternatives = paths.keySet().stream().sorted(java.util.Comparator.comparingInt(String::length).reversed())
                .map(java.util.regex.Pattern::quote).collect(java.util.stream.Collectors.joining("|"));
        java.util.regex.Pattern p = java.util.regex.Pattern.compile(alternatives);
        return t -> t == null || t.isEmpty() ? t : p.matcher(t).replaceAll(m -> java.util.regex.Matcher.quoteReplacement(paths.get(m.group())));
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
