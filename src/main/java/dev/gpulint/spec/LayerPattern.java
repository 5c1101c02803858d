package dev.gpulint.spec;

/**
 * Megatron-Core's {@code --moe-layer-freq}: which layers of an MoE model have experts (1) and which a dense MLP (0).
 * Written as an integer N (layer i is MoE when i mod N = 0: N = 1, every layer; N = 2, every other layer from the first)
 * or as a Python list expression of 0s and 1s built from list literals, {@code +} and {@code *} with a whole number,
 * as Megatron's argument parser evaluates it: {@code ([0]*3+[1]*58)} is DeepSeek V3's three dense layers then 58 MoE
 * layers; {@code ([1]*3+[0]*1)*3} repeats a pattern. Nothing else of Python is read, and a pattern is at most
 * {@link #MAX_LAYERS} layers long (it is built only after its length is known), so any text costs time linear in its
 * length.
 */
public final class LayerPattern {
    /** The longest pattern read: longer text is refused with a message, never expanded. */
    public static final int MAX_LAYERS = 100_000;
    /** The longest text read. */
    public static final int MAX_TEXT = 10_000;

    private LayerPattern() {}

    /** What is wrong with {@code text} as a layer pattern, or null when it reads. */
    public static String problem(String text) {
        try {
            parse(text, 0);
            return null;
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    /**
     * The pattern, one entry per layer (true: MoE). {@code layers} is the model's layer count: an integer N expands to
     * it, a list must have exactly that many entries (0: not known, the list as written; an integer then gives one entry).
     *
     * @throws IllegalArgumentException with a message for the person who wrote it
     */
    public static boolean[] parse(String text, int layers) {
        if (text == null) throw new IllegalArgumentException("no pattern written");
        String t = text.strip();
        if (t.startsWith("\"") && t.endsWith("\"") && t.length() >= 2 || t.startsWith("'") && t.endsWith("'") && t.length() >= 2) {
            t = t.substring(1, t.length() - 1).strip();
        }
        if (t.isEmpty()) throw new IllegalArgumentException("the pattern is empty; " + EXPECTED);
        if (t.length() > MAX_TEXT) throw new IllegalArgumentException("the pattern is " + t.length() + " characters long; at most " + MAX_TEXT + " are read");
        if (t.chars().allMatch(Character::isDigit)) {
            long n = t.length() > 9 ? Long.MAX_VALUE : Long.parseLong(t);
            if (n < 1) throw new IllegalArgumentException("'" + t + "' must be at least 1 (every N-th layer is MoE)");
            boolean[] out = new boolean[Math.max(1, layers)];
            for (int i = 0; i < out.length; i++) out[i] = i % n == 0;
            return out;
        }
        Reader r = new Reader(t);
        Node n = r.expr();
        r.skip();
        if (r.at < t.length()) throw r.error("unexpected '" + t.charAt(r.at) + "'");
        long len = n.length();
        if (len > MAX_LAYERS) throw new IllegalArgumentException("the pattern gives " + len + " layers; at most " + MAX_LAYERS + " are read");
        if (layers > 0 && len != layers) {
            throw new IllegalArgumentException("the pattern gives " + len + " layer" + (len == 1 ? "" : "s") + " but the model has " + layers);
        }
        boolean[] out = new boolean[(int) len];
        n.fill(out, 0);
        return out;
    }

    /** MoE layers of a pattern. */
    public static int count(boolean[] pattern) {
        int c = 0;
        for (boolean b : pattern) if (b) c++;
        return c;
    }

    private static final String EXPECTED = "expected an integer N (every N-th layer is MoE) or a list of 0s and 1s such as ([0]*3+[1]*58)";

    /** A parsed expression: a list literal, a sum or a repetition; its length is known before anything is built. */
    private sealed interface Node permits Lit, Sum, Times {
        long length();

        int fill(boolean[] out, int at);
    }

    private record Lit(boolean[] values) implements Node {
        public long length() { return values.length; }

        public int fill(boolean[] out, int at) {
            System.arraycopy(values, 0, out, at, values.length);
            return at + values.length;
        }
    }

    private record Sum(Node a, Node b) implements Node {
        public long length() { return cap(a.length() + b.length()); }

        public int fill(boolean[] out, int at) { return b.fill(out, a.fill(out, at)); }
    }

    private record Times(Node a, long n) implements Node {
        public long length() {
            long l = a.length();
            return n == 0 || l == 0 ? 0 : l > (MAX_LAYERS + 1L) / n ? MAX_LAYERS + 1L : cap(l * n);
        }

        public int fill(boolean[] out, int at) {
            if (a.length() == 0) return at;   // []*N builds nothing: never loop N times for it
            for (long i = 0; i < n; i++) at = a.fill(out, at);
            return at;
        }
    }

    private static long cap(long v) { return Math.min(v, MAX_LAYERS + 1L); }

    /** A recursive-descent reader of expr := term ('+' term)*; term := factor ('*' INT)* | INT '*' factor; factor := list | '(' expr ')'. */
    private static final class Reader {
        final String s;
        int at, depth;

        Reader(String s) { this.s = s; }

        IllegalArgumentException error(String what) {
            return new IllegalArgumentException(what + " at character " + (at + 1) + " of '" + (s.length() <= 80 ? s : s.substring(0, 77) + "...")
                    + "'; " + EXPECTED);
        }

        void skip() {
            while (at < s.length() && Character.isWhitespace(s.charAt(at))) at++;
        }

        boolean eat(char c) {
            skip();
            if (at < s.length() && s.charAt(at) == c) { at++; return true; }
            return false;
        }

        Node expr() {
            if (++depth > 100) throw error("the pattern nests more than 100 deep");
            Node n = term();
            while (eat('+')) n = new Sum(n, term());
            depth--;
            return n;
        }

        Node term() {
            skip();
            Node n;
            if (at < s.length() && Character.isDigit(s.charAt(at))) {
                long k = number();
                if (!eat('*')) throw error("a number alone is no list");
                n = new Times(factor(), k);
            } else {
                n = factor();
            }
            while (eat('*')) n = new Times(n, number());
            return n;
        }

        Node factor() {
            if (eat('(')) {
                Node n = expr();
                if (!eat(')')) throw error(at < s.length() ? "expected ')'" : "unclosed '('");
                return n;
            }
            if (eat('[')) {
                java.util.List<Boolean> v = new java.util.ArrayList<>();
                if (!eat(']')) {
                    do {
                        long x = number();
                        if (x != 0 && x != 1) {
                            String written = s.substring(start, Math.min(at, start + 12));
                            at = start;   // the message points at the entry, not past it
                            throw error("layer entries are 0 (dense) or 1 (MoE), found " + written);
                        }
                        if (v.size() >= MAX_LAYERS) throw error("the list has more than " + MAX_LAYERS + " entries");
                        v.add(x == 1);
                    } while (eat(','));
                    if (!eat(']')) throw error(at < s.length() ? "expected ']'" : "unclosed '['");
                }
                boolean[] b = new boolean[v.size()];
                for (int i = 0; i < b.length; i++) b[i] = v.get(i);
                return new Lit(b);
            }
            skip();
            throw error(at < s.length() ? "unexpected '" + s.charAt(at) + "'" : "the pattern ends early");
        }

        /** Where the last number read starts. */
        int start;

        long number() {
            skip();
            start = at;
            while (at < s.length() && Character.isDigit(s.charAt(at))) at++;
            if (start == at) throw error(at < s.length() ? "expected a number, found '" + s.charAt(at) + "'" : "the pattern ends early");
            return at - start > 9 ? MAX_LAYERS + 1L : Long.parseLong(s.substring(start, at));
        }
    }
}
