package dev.gpulint.config;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the configuration's rule names are checked against: every rule's ID and name (in the catalog's order, each ID
 * before its name) and each rule's parameter names by ID. Plain names, handed in by the run that knows the rules
 * (lint.ProjectRun from meta.RuleCatalog): configuration is read below the rules' metadata and imports none of it.
 */
public record RuleNames(List<String> idsAndNames, Map<String, List<String>> params) {
    public RuleNames {
        idsAndNames = List.copyOf(idsAndNames);
        Map<String, List<String>> p = new LinkedHashMap<>();
        params.forEach((id, names) -> p.put(id, List.copyOf(names)));
        params = java.util.Collections.unmodifiableMap(p);
    }

}
