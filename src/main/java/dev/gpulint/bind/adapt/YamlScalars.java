package dev.gpulint.bind.adapt;

import java.math.BigInteger;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What a plain (unquoted) YAML scalar becomes in the programs that read the environment variables gpulint judges (PAR018):
 * YAML 1.1, as PyYAML's {@code yaml.safe_load} resolves it (lib/yaml/resolver.py, yaml/pyyaml: bool {@code yes/no/true/false/
 * on/off} in three casings, int {@code 0b…}, {@code 0…} octal, decimal, {@code 0x…} and base 60, with {@code _} allowed) and
 * Kubernetes' sigs.k8s.io/yaml (go-yaml's YAML 1.1 rules, which also take {@code y}/{@code n} as bools and Go's
 * {@code 0o…} as an int). A quoted scalar is always the string written.
 */
final class YamlScalars {
    private YamlScalars() {}

    private static final Pattern INT = Pattern.compile(
            "[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+");
    private static final Pattern FLOAT = Pattern.compile(
            "[-+]?(?:[0-9][0-9_]*)\\.[0-9_]*(?:[eE][-+][0-9]+)?|\\.[0-9_]+(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\\.[0-9_]*"
                    + "|[-+]?\\.(?:inf|Inf|INF)|\\.(?:nan|NaN|NAN)");
    private static final Set<String> TRUE = Set.of("yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON");
    private static final Set<String> FALSE = Set.of("no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF");
    private static final Set<String> NULL = Set.of("~", "null", "Null", "NULL", "");

    /**
     * Python's {@code str()} of the value PyYAML reads from a plain scalar: SkyPilot's Task.from_yaml_config turns every
     * envs value into a string that way ({@code {str(k): str(v) for k, v in envs.items()}}, sky/task.py,
     * skypilot-org/skypilot), so {@code 01} reaches the process as {@code 1}, {@code true} as {@code True} and {@code 0o1}
     * (not an int in YAML 1.1) as written. Null for a float or a null (gpulint does not redo Python's float printing).
     */
    static String pythonString(String plain) {
        if (plain.length() > 64) return null;
        if (TRUE.contains(plain)) return "True";
        if (FALSE.contains(plain)) return "False";
        if (NULL.contains(plain) || FLOAT.matcher(plain).matches()) return null;
        if (!INT.matcher(plain).matches()) return plain;
        String t = plain.replace("_", "");
        boolean negative = t.startsWith("-");
        if (t.startsWith("-") || t.startsWith("+")) t = t.substring(1);
        BigInteger v;
        try {
        if (t.contains(":")) {
            v = BigInteger.ZERO;
            for (String part : t.split(":")) v = v.multiply(BigInteger.valueOf(60)).add(new BigInteger(part));
        } else if (t.startsWith("0b")) v = new BigInteger(t.substring(2), 2);
        else if (t.startsWith("0x")) v = new BigInteger(t.substring(2), 16);
        else if (t.length() > 1 && t.startsWith("0")) v = new BigInteger(t.substring(1), 8);
        else v = new BigInteger(t);
        } catch (NumberFormatException e) {
            return null;                                 // "0b_": no digits
        }
        return (negative ? v.negate() : v).toString();
    }

    /**
     * Whether Kubernetes reads a plain scalar as a string: not a bool ({@code y}, {@code n} too), a null, an int (Go's
     * {@code 0o} form too) or a float. An EnvVar's value must be a string: the API server refuses the object otherwise
     * ("cannot unmarshal number into Go struct field EnvVar...value of type string").
     */
    /** What Go's JSON decoder calls a plain scalar Kubernetes does not read as a string: "bool" or "number" ("null" for a null). */
    static String kind(String plain) {
        if (TRUE.contains(plain) || FALSE.contains(plain) || Set.of("y", "Y", "n", "N").contains(plain)) return "bool";
        return NULL.contains(plain) ? "null" : "number";
    }

    static boolean kubernetesString(String plain) {
        if (TRUE.contains(plain) || FALSE.contains(plain) || NULL.contains(plain) || Set.of("y", "Y", "n", "N").contains(plain)) return false;
        return !INT.matcher(plain).matches() && !FLOAT.matcher(plain).matches() && !plain.matches("[-+]?0[oO][0-7_]+");
    }
}
