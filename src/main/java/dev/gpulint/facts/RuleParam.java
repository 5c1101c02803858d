package dev.gpulint.facts;

/**
 * One parameter of a rule, as its metadata (rules/&lt;family&gt;/ID.yaml {@code params:}) sets it
 * and .gpulint.yaml may override it: {@code RuleParam( rule == "MEM002", name == "warn_at", $w : value )}.
 * One fact per rule and parameter, inserted in every run.
 */
public record RuleParam(String rule, String name, double value) {
    /** The rule ID, e.g. "MEM002". */
    public String getRule() { return rule; }
    /** The parameter's name, e.g. "warn_at". */
    public String getName() { return name; }
    /** Its value in this run. */
    public double getValue() { return value; }
}
