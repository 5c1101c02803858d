package dev.gpulint.core;

import java.util.Collection;
import java.util.Locale;

/**
 * Did-you-mean suggestions by edit distance. Bounded for hostile input: a word or candidate longer
 * than {@link #MAX_LENGTH} gets no suggestion, at most {@link #MAX_CANDIDATES} candidates are
 * compared, and a candidate whose length alone rules it out is not compared at all.
 */
public final class DidYouMean {
    /** Names longer than this are no typo of a known name; they get no suggestion. */
    public static final int MAX_LENGTH = 64;
    /** The most candidates one suggestion compares. */
    public static final int MAX_CANDIDATES = 4096;

    private DidYouMean() {}

    /** The closest candidate within a distance that makes a typo plausible, or null. */
    public static String closest(String word, Collection<String> candidates) {
        if (word.length() > MAX_LENGTH) return null;
        String best = null;
        int bestD = Integer.MAX_VALUE;
        String w = word.toLowerCase(Locale.ROOT);
        // no candidate further than this can be accepted (the limit below never exceeds it), so none is compared
        int ceiling = Math.max(2, word.length() / 3);
        int compared = 0;
        for (String c : candidates) {
            if (++compared > MAX_CANDIDATES) break;
            String lc = c.toLowerCase(Locale.ROOT);
            if (lc.length() > MAX_LENGTH || Math.abs(lc.length() - w.length()) > Math.min(ceiling, bestD)) continue;
            // a candidate further than the ceiling, or than the best so far, changes nothing: its distance is only
            // computed up to that bound (NCCL's ~400 names against each unknown variable of a job: a lint's hot spot)
            int d = distance(w, lc, Math.min(ceiling, bestD));
            if (d > ceiling) continue;
            if (d < bestD || (d == bestD && best != null && c.compareTo(best) < 0)) { bestD = d; best = c; }
        }
        if (best == null) return null;
        int limit = Math.max(2, Math.min(word.length(), best.length()) / 3);
        return bestD <= limit ? best : null;
    }

    /** The n closest candidates by edit distance, nearest first (ties alphabetically). */
    public static java.util.List<String> closestN(String word, Collection<String> candidates, int n) {
        if (word.length() > MAX_LENGTH) return java.util.List.of();
        String w = word.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "");
        return candidates.stream()
                .sorted(java.util.Comparator.comparingInt((String c) -> distance(w, c.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "")))
                        .thenComparing(c -> c))
                .limit(n).toList();
    }

    /**
     * The one candidate clearly nearest to {@code word}, comparing letters and digits only (case, blanks, dashes
     * and underscores ignored): within a typo's distance (a third of the word, at least 2) and strictly nearer
     * than every other candidate; null when none is, or two are equally near.
     */
    public static String clearlyNearest(String word, Collection<String> candidates) {
        if (word.length() > MAX_LENGTH) return null;
        String w = word.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "");
        String best = null;
        int bestD = Integer.MAX_VALUE, secondD = Integer.MAX_VALUE, compared = 0;
        for (String c : candidates) {
            if (++compared > MAX_CANDIDATES) break;
            int d = distance(w, c.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", ""));
            if (d < bestD) { secondD = bestD; bestD = d; best = c; }
            else if (d < secondD) secondD = d;
        }
        return best != null && bestD <= Math.max(2, w.length() / 3) && bestD < secondD ? best : null;
    }

    /** Levenshtein distance with adjacent transpositions (optimal string alignment). */
    public static int distance(String a, String b) {
        if (a.length() > MAX_LENGTH || b.length() > MAX_LENGTH) return Math.abs(a.length() - b.length()) + MAX_LENGTH;
        return distance(a, b, Integer.MAX_VALUE - 1);
    }

    /**
     * {@link #distance} when it is at most {@code bound}; otherwise some number above {@code bound} (the rows stop once two
     * in a row exceed it: every cell comes from the row above or the one before it, so no later row can come back under).
     * Three rows, not the whole matrix.
     */
    static int distance(String a, String b, int bound) {
        if (a.length() > MAX_LENGTH || b.length() > MAX_LENGTH) return Math.abs(a.length() - b.length()) + MAX_LENGTH;
        int n = b.length();
        int[] before = new int[n + 1], above = new int[n + 1], row = new int[n + 1];
        for (int j = 0; j <= n; j++) above[j] = j;
        int aboveMin = 0;
        for (int i = 1; i <= a.length(); i++) {
            row[0] = i;
            int rowMin = i;
            for (int j = 1; j <= n; j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                int d = Math.min(Math.min(above[j] + 1, row[j - 1] + 1), above[j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) d = Math.min(d, before[j - 2] + 1);
                row[j] = d;
                rowMin = Math.min(rowMin, d);
            }
            if (rowMin > bound && aboveMin > bound) return bound + 1;
            int[] t = before;
            before = above;
            above = row;
            row = t;
            aboveMin = rowMin;
        }
        return above[n];
    }
}
