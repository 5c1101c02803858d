package dev.gpulint.bind.adapt.shell;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The integer arithmetic of a shell {@code $((...))}: + - * / % and parentheses over numbers and
 * known variables. Nesting is bounded, so a hostile script cannot exhaust the stack: deeper
 * expressions, overflow and division by zero are unknown (null).
 */
final class ShellArithmetic {

    private ShellArithmetic() {}

    /** How deep parentheses and unary minus may nest in $((...)); deeper is unknown. */
    static final int MAX_DEPTH = 64;

    /** Integer arithmetic of $((...)): + - * / % and parentheses over numbers and known variables. */
    static Long evaluate(String expr, Map<String, String> vars) {
        if (expr.length() > Shell.MAX_VALUE) return null;
        String e = expr.replaceAll("\\$\\{?([A-Za-z_][A-Za-z0-9_]*)\\}?", "$1");
        Matcher m = NAME.matcher(e);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            String v = vars.get(m.group());
            if (v == null || !v.trim().matches("-?[0-9]+")) return null;
            m.appendReplacement(sb, v.trim());
            if (sb.length() > Shell.MAX_VALUE) return null;
        }
        m.appendTail(sb);
        try {
            Arith a = new Arith(sb.toString().replace(" ", ""));
            long v = a.sum();
            return a.pos == a.s.length() ? v : null;
        } catch (ArithmeticException | NumberFormatException | StringIndexOutOfBoundsException ex) {
            return null;
        }
    }

    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private static final class Arith {
        final String s;
        int pos, depth;
        Arith(String s) { this.s = s; }
        long sum() {
            long v = product();
            while (pos < s.length() && (s.charAt(pos) == '+' || s.charAt(pos) == '-')) {
                char op = s.charAt(pos++);
                long r = product();
                v = op == '+' ? Math.addExact(v, r) : Math.subtractExact(v, r);
            }
            return v;
        }
        long product() {
            long v = atom();
            while (pos < s.length() && (s.charAt(pos) == '*' || s.charAt(pos) == '/' || s.charAt(pos) == '%')) {
                char op = s.charAt(pos++);
                long r = atom();
                v = op == '*' ? Math.multiplyExact(v, r) : op == '/' ? v / r : v % r;
            }
            return v;
        }
        long atom() {
            if (++depth > MAX_DEPTH) throw new ArithmeticException("nested too deep");
            try {
                if (s.charAt(pos) == '(') { pos++; long v = sum(); pos++; return v; }
                if (s.charAt(pos) == '-') { pos++; return Math.negateExact(atom()); }
                return number();
            } finally {
                depth--;
            }
        }
        long number() {
            int start = pos;
            while (pos < s.length() && Character.isDigit(s.charAt(pos))) pos++;
            return Long.parseLong(s.substring(start, pos));
        }
    }
}
