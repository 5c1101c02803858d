package dev.gpulint.core;

import java.util.Collection;
import java.util.Locale;

/** Did-you-mean suggestions by edit distance. */
public final class DidYouMean {
    private DidYouMean() {}

    /** The closest candidate within a distance that makes a typo plausible, or null. */
    public static String closest(String word, Collection<String> candidates) {
        String best = null;
        int bestD = Integer.MAX_VALUE;
        String w = word.toLowerCase(Locale.ROOT);
        for (String c : candidates) {
            int d = distance(w, c.toLowerCase(Locale.ROOT));
            if (d < bestD || (d == bestD && best != null && c.compareTo(best) < 0)) { bestD = d; best = c; }
        }
        if (best == null) return null;
        int limit = Math.max(2, Math.min(word.length(), best.length()) / 3);
        return bestD <= limit ? best : null;
    }

    /** The n closest candidates by edit distance, nearest first (ties alphabetically). */
    public static java.util.List<String> closestN(String word, Collection<String> candidates, int n) {
        String w = word.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "");
        return candidates.stream()
                .sorted(java.util.Comparator.comparingInt((String c) -> distance(w, c.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "")))
                        .thenComparing(c -> c))
                .limit(n).toList();
    }

    /** Levenshtein distance with adjacent transpositions (optimal string alignment). */
    public static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) d[i][0] = i;
        for (int j = 0; j <= b.length(); j++) d[0][j] = j;
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
