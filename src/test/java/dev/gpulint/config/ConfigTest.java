package dev.gpulint.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.core.Finding;
import dev.gpulint.core.Span;
import dev.gpulint.meta.RuleCatalog;
import dev.gpulint.spec.EvidenceLink;
import dev.gpulint.spec.JobPlacement;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading .gpulint.yaml: every key, and every mistake as a finding at its place. */
class ConfigTest {
    /** The built-in rules' names, as a run hands them to the configuration's checks. */
    private static final dev.gpulint.config.RuleNames NAMES = dev.gpulint.lint.ProjectRun.names(RuleCatalog.builtIn());


    @TempDir Path dir;

    private Config load(String text) throws IOException {
        Path p = dir.resolve(Config.NAME);
        Files.writeString(p, text, StandardCharsets.UTF_8);
        return Config.load(p, "cfg.yaml");
    }

    private static List<String> problems(List<Finding> findings) {
        return findings.stream().map(f -> f.span() + " " + f.ruleId() + " " + f.message()).toList();
    }

    @Test
    void anEmptyConfigurationHasTheDefaults() throws IOException {
        Config c = load("# nothing yet\n");
        assertEquals(List.of(), c.problems());
        assertEquals(List.of(), c.include());
        assertEquals(Map.of(), c.ruleLevels());
        assertEquals(List.of(), c.params());
        assertEquals(dir.toAbsolutePath().normalize(), c.base());
        assertEquals("cfg.yaml", c.file());
        assertFalse(c.excluded(dir.resolve("a.yaml")));
    }

    @Test
    void includeKeepsItsEntriesAndExcludeGlobsMatchFilesAndFoldersBelowTheConfiguration() throws IOException {
        Config c = load("include: [clusters/, shared/pod.yaml]\nexclude: [\"legacy/**\", \"*.tmp.yaml\"]\n");
        assertEquals(List.of(), c.problems());
        assertEquals(List.of("clusters/", "shared/pod.yaml"), c.include());
        assertTrue(c.excluded(dir.resolve("legacy/old.yaml")));
        assertTrue(c.excluded(dir.resolve("legacy/deep/er/old.yaml")));
        assertTrue(c.excluded(dir.resolve("x.tmp.yaml")));
        assertFalse(c.excluded(dir.resolve("jobs/x.tmp.yaml")), "a glob without ** stays at the top");
        assertFalse(c.excluded(dir.resolve("jobs/legacy.yaml")));
        assertFalse(c.excluded(dir.resolve("jobs/job.yaml")));
        // a single path is a list of one
        assertEquals(List.of("clusters/"), load("include: clusters/\n").include());
    }

    @Test
    void includeEntriesMustBePaths() throws IOException {
        Config c = load("include:\n  - { a: 1 }\n  - ok/\n");
        assertEquals(List.of("ok/"), c.include());
        assertEquals(List.of("cfg.yaml:2:5 SYN002 'include' in cfg.yaml must be a path or a list of paths, found a mapping."),
                problems(c.problems()));
    }

    @Test
    void rulesTurnOffOrSetLevelsByIdOrName() throws IOException {
        Config c = load("rules:\n  NET001: warning\n  roce-without-ecn: off\n  PAR002: Error\n");
        assertEquals(List.of(), c.problems());
        assertEquals(Map.of("NET001", "warning", "roce-without-ecn", "off", "PAR002", "error"), c.ruleLevels());
        assertEquals(List.of("NET001", "roce-without-ecn", "PAR002"), List.copyOf(c.ruleLevels().keySet()), "in file order");
        assertEquals(new Span("cfg.yaml", 3, 3, 3, 19), c.rules().get("roce-without-ecn").keySpan());
        assertEquals(List.of(), c.checkRuleNames(NAMES));
    }

    @Test
    void aBadRuleSettingOrAnUnknownRuleIsReportedWhereItIs() throws IOException {
        Config c = load("rules:\n  NET01: off\n  NET002: loud\n");
        assertEquals(List.of("cfg.yaml:3:11 SYN002 rule setting 'loud' for NET002 must be off, error, warning or note."),
                problems(c.problems()));
        assertEquals(Map.of("NET01", "off"), c.ruleLevels());
        assertEquals(List.of("cfg.yaml:2:3 SYN002 'NET01' in the rules of cfg.yaml is no gpulint rule ID or name; did you mean 'NET001'?"),
                problems(c.checkRuleNames(NAMES)));
        assertEquals(List.of("cfg.yaml:1:8 SYN002 'rules' in cfg.yaml must map rule IDs or names to off, error, warning or note."),
                problems(load("rules: [NET001]\n").problems()));
    }

    @Test
    void fixSettingsChooseWhichRulesFixesAreOfferedAndHowSafe() throws IOException {
        Config c = load("fix:\n  unfixable: [PAR004]\n  fixable: [UNIT001, bit-byte-mixup, NCCL004]\n"
                + "  rules: { HW003: safe, UNIT003: unsafe, OPS001: off }\n");
        assertEquals(List.of(), problems(c.problems()));
        var s = dev.gpulint.fix.FixSettings.of(c.fix());
        RuleCatalog rules = RuleCatalog.builtIn();
        assertTrue(s.offered("UNIT001", rules));
        assertFalse(s.offered("PAR004", rules), "unfixable");
        assertFalse(s.offered("OPS001", rules), "off");
        assertFalse(s.offered("NET001", rules), "not in fixable");
        assertEquals(dev.gpulint.core.Safety.SAFE, s.safety("HW003", dev.gpulint.core.Safety.UNSAFE, rules));
        assertEquals(dev.gpulint.core.Safety.UNSAFE, s.safety("UNIT003", dev.gpulint.core.Safety.SAFE, rules));
        assertEquals(List.of(), problems(c.fix().check(NAMES, "cfg.yaml")));
        assertTrue(dev.gpulint.fix.FixSettings.of(load("").fix()).offered("PAR004", rules), "without fix:, every rule's fixes");
    }

    @Test
    void aBadFixSettingIsReportedWhereItIs() throws IOException {
        Config c = load("fix:\n  unfixable: [UNIT01, {x: 1}]\n  rules: { HW003: maybe }\n  fixables: []\n");
        assertEquals(List.of("cfg.yaml:2:23 SYN002 'fix.unfixable' in cfg.yaml must be a rule ID or name, or a list of them, found a mapping.",
                "cfg.yaml:3:19 SYN002 fix level 'maybe' for HW003 in cfg.yaml must be safe, unsafe or off.",
                "cfg.yaml:4:3 SYN002 unknown key 'fixables' under fix in cfg.yaml; did you mean 'fixable'?"), problems(c.problems()));
        assertEquals(List.of("cfg.yaml:2:15 SYN002 'UNIT01' in the fix settings of cfg.yaml is no gpulint rule ID or name; did you mean 'UNIT001'?"),
                problems(c.fix().check(NAMES, "cfg.yaml")));
        assertEquals(List.of("cfg.yaml:1:6 SYN002 'fix' in cfg.yaml must be a mapping with fixable, unfixable and rules."),
                problems(load("fix: all\n").problems()));
    }

    @Test
    void thresholdsSetTheRuleParametersTheyName() throws IOException {
        Config c = load("thresholds:\n  bubble_note: 0.1\n  memory_warning_percent: 80\n  allreduce_seconds: 2.5\n");
        assertEquals(List.of(), c.problems());
        assertEquals(List.of("PAR006.note_at=0.1 at 2:3", "MEM002.warn_at=0.8 at 3:3", "NET003.budget_seconds=2.5 at 4:3"), params(c));
    }

    @Test
    void paramsSetRuleParametersAndAreCheckedAgainstTheMetadata() throws IOException {
        Config c = load("params:\n  MEM002: { warn_at: 0.85 }\n  NET003:\n    budget_secs: 2\n  NET999: { x: 1 }\n"
                + "  PAR006: { warn_at: 1.5, note_at: NaN }\n");
        assertEquals(List.of(
                "cfg.yaml:6:22 SYN002 parameter 'warn_at' of PAR006 is 1.5; it must be a fraction above 0 and at most 1.",
                "cfg.yaml:6:36 SYN002 parameter 'note_at' of PAR006 must be a number."), problems(c.problems()));
        assertEquals(List.of("MEM002.warn_at=0.85 at 2:13", "NET003.budget_secs=2.0 at 4:5", "NET999.x=1.0 at 5:13"), params(c));
        assertEquals(List.of(
                "cfg.yaml:4:5 SYN002 NET003 has no parameter 'budget_secs'; did you mean 'budget_seconds'?",
                "cfg.yaml:5:3 SYN002 'NET999' in the params of cfg.yaml is no gpulint rule ID."),
                problems(c.checkParams(NAMES)));
    }

    private static List<String> params(Config c) {
        return c.params().stream().map(p -> p.rule() + "." + p.name() + "=" + p.value() + " at " + p.nameSpan().startLine()
                + ":" + p.nameSpan().startColumn()).toList();
    }

    @Test
    void badThresholdsAreReportedAndKeepTheirDefaults() throws IOException {
        Config c = load("thresholds:\n  bubble_noet: 0.1\n  bubble_warning: 1.5\n  allreduce_seconds: fast\n"
                + "  memory_warning_percent: 120\n");
        assertEquals(List.of(
                "cfg.yaml:2:3 SYN002 unknown threshold 'bubble_noet' in cfg.yaml; did you mean 'bubble_note'?",
                "cfg.yaml:3:19 SYN002 threshold 'bubble_warning' is 1.5; it must be a fraction between 0 and 1.",
                "cfg.yaml:4:22 SYN002 threshold 'allreduce_seconds' must be a number.",
                "cfg.yaml:5:27 SYN002 threshold 'memory_warning_percent' is 120.0; it must be a percentage above 0 and at most 100."),
                problems(c.problems()));
        assertEquals(List.of(), c.params());
    }

    @Test
    void catalogAdditionsJoinTheBuiltInCatalog() throws IOException {
        Config c = load("""
                catalog:
                  gpus:
                    - name: H20-SXM-96GB
                      family: H20
                      form: sxm
                      memory: 96 GiB
                      nvlink_generation: 4
                      nvswitch: true
                      source: vendor datasheet
                """);
        assertEquals(List.of(), c.problems());
        assertEquals("H20", c.catalog().gpu("h20 sxm 96gb").orElseThrow().family());
        assertTrue(c.catalog().gpu("H100-SXM5-80GB").isPresent(), "the built-in entries stay");
        assertTrue(Config.none().catalog().gpu("H20-SXM-96GB").isEmpty());
    }

    @Test
    void aBadCatalogIsOneFindingAndTheBuiltInCatalogIsUsed() throws IOException {
        Config c = load("catalog:\n  gpus:\n    - { name: X1 }\n");
        assertEquals(List.of("cfg.yaml:1:1 SYN002 the catalog of cfg.yaml: catalog GPU X1 lacks 'family'."), problems(c.problems()));
        assertTrue(c.catalog().gpu("X1").isEmpty());
        assertEquals(List.of("cfg.yaml:1:1 SYN002 the catalog of cfg.yaml: unknown catalog section 'tpus'; the sections are gpus and nics."),
                problems(load("catalog:\n  tpus: []\n").problems()));
    }

    @Test
    void jobClustersPlaceFilesByGlobFirstMatchFirst() throws IOException {
        Config c = load("job_clusters:\n  - { files: \"training/**\", cluster: ib-pod, node_group: dgx }\n"
                + "  - { files: \"**/*.json\", cluster: eth-pod }\n");
        assertEquals(List.of(), c.problems());
        assertEquals(Optional.of(new JobPlacement("ib-pod", "dgx", new Span("cfg.yaml", 2, 38, 2, 44))),
                c.placement(dir.resolve("training/llm.yaml").toString()));
        assertEquals(Optional.of(new JobPlacement("ib-pod", "dgx", new Span("cfg.yaml", 2, 38, 2, 44))),
                c.placement(dir.resolve("training/ds/config.json").toString()), "the first matching entry wins");
        JobPlacement eth = c.placement(dir.resolve("other/ds.json").toString()).orElseThrow();
        assertEquals("eth-pod", eth.cluster());
        assertNull(eth.nodeGroup());
        assertEquals(Optional.empty(), c.placement(dir.resolve("other/llm.yaml").toString()));
    }

    @Test
    void badJobClusterEntriesAreReported() throws IOException {
        Config c = load("job_clusters:\n  - { files: \"training/**\", clutser: ib-pod }\n  - cluster: x\n  - just-a-string\n");
        assertEquals(List.of(
                "cfg.yaml:2:29 SYN002 unknown key 'clutser' in entry 1 of 'job_clusters'; did you mean 'cluster'?",
                "cfg.yaml:2:5 SYN002 entry 1 of 'job_clusters' in cfg.yaml needs both 'files' (a glob) and 'cluster'.",
                "cfg.yaml:3:5 SYN002 entry 2 of 'job_clusters' in cfg.yaml needs both 'files' (a glob) and 'cluster'.",
                "cfg.yaml:4:5 SYN002 entry 3 of 'job_clusters' in cfg.yaml must be a mapping { files: GLOB, cluster: NAME }."),
                problems(c.problems()));
        assertEquals(List.of(), c.jobClusters());
    }

    @Test
    void evidenceEntriesLinkFilesToAClusterNodeGroupOrJobFirstMatchFirst() throws IOException {
        Config c = load("evidence:\n  - { files: \"nodes/*.topo-m.txt\", cluster: hgx, node_group: h100 }\n"
                + "  - files: \"runs/**\"\n    job: llama-pretrain\n  - { files: \"**/*.log\", cluster: eth-pod }\n");
        assertEquals(List.of(), c.problems());
        assertEquals(Optional.of(new EvidenceLink("hgx", "h100", null, new Span("cfg.yaml", 2, 45, 2, 48))),
                c.evidenceLink(dir.resolve("nodes/n01.topo-m.txt").toString()));
        assertEquals(Optional.of(new EvidenceLink(null, null, "llama-pretrain", new Span("cfg.yaml", 4, 10, 4, 24))),
                c.evidenceLink(dir.resolve("runs/17/train.log").toString()), "the first matching entry wins");
        assertEquals(Optional.of(new EvidenceLink("eth-pod", null, null, new Span("cfg.yaml", 5, 35, 5, 42))),
                c.evidenceLink(dir.resolve("other/train.log")));
        assertEquals(Optional.empty(), c.evidenceLink(dir.resolve("other/n01.topo-m.txt").toString()));
    }

    @Test
    void badEvidenceEntriesAreReported() throws IOException {
        Config c = load("evidence:\n  - { files: \"a/*\", clutser: hgx }\n  - { files: \"b/*\", cluster: hgx, job: j }\n"
                + "  - { files: \"c/*\", job: j, node_group: g }\n  - job: j\n  - just-a-string\n  - { files: \"{d,\", job: j }\n"
                + "  - { files: \"e/*\", job: j, owner: me }\n");
        assertEquals(List.of(
                "cfg.yaml:2:21 SYN002 unknown key 'clutser' in entry 1 of 'evidence'; did you mean 'cluster'?",
                "cfg.yaml:2:5 SYN002 entry 1 of 'evidence' in cfg.yaml needs 'files' (a glob) and either 'cluster' (with an optional "
                        + "'node_group') or 'job'.",
                "cfg.yaml:3:5 SYN002 entry 2 of 'evidence' in cfg.yaml needs 'files' (a glob) and either 'cluster' (with an optional "
                        + "'node_group') or 'job'.",
                "cfg.yaml:4:5 SYN002 entry 3 of 'evidence' in cfg.yaml needs 'files' (a glob) and either 'cluster' (with an optional "
                        + "'node_group') or 'job'.",
                "cfg.yaml:5:5 SYN002 entry 4 of 'evidence' in cfg.yaml needs 'files' (a glob) and either 'cluster' (with an optional "
                        + "'node_group') or 'job'.",
                "cfg.yaml:6:5 SYN002 entry 5 of 'evidence' in cfg.yaml must be a mapping { files: GLOB, cluster: NAME } or "
                        + "{ files: GLOB, job: NAME }.",
                "cfg.yaml:7:14 SYN002 '{d,' in 'evidence' is not a valid glob",
                "cfg.yaml:8:29 SYN002 unknown key 'owner' in entry 7 of 'evidence'; valid keys: files, cluster, node_group, job."),
                problems(c.problems()).stream().map(p -> p.replaceFirst("(is not a valid glob).*", "$1")).toList());
        assertEquals(Optional.empty(), c.evidenceLink(dir.resolve("e/x.log").toString()), "an entry with an unknown key links nothing");
        assertEquals(List.of("cfg.yaml:2:3 SYN002 'evidence' in cfg.yaml must be a list of { files: GLOB, cluster: NAME, "
                + "node_group: NAME } or { files: GLOB, job: NAME }."), problems(load("evidence:\n  files: a/*\n").problems()));
    }

    @Test
    void rulePathsResolveAgainstTheConfigurationsFolder() throws IOException {
        Config c = load("rule_paths: [team-rules, ../shared-rules]\n");
        assertEquals(List.of("team-rules", "../shared-rules"), c.rulePaths());
        Path base = dir.toAbsolutePath().normalize();
        assertEquals(List.of(base.resolve("team-rules"), base.resolve("../shared-rules")), c.rulePathsResolved());
    }

    @Test
    void anUnknownKeyIsReportedWithTheClosestOneOrTheList() throws IOException {
        assertEquals(List.of("cfg.yaml:1:1 SYN002 unknown key 'includes' in cfg.yaml; did you mean 'include'?"),
                problems(load("includes: [clusters/]\n").problems()));
        assertEquals(List.of("cfg.yaml:2:1 SYN002 unknown key 'colour' in cfg.yaml; valid keys: "
                        + "include, exclude, rules, rule_paths, thresholds, params, catalog, job_clusters, evidence, plan, fix."),
                problems(load("include: []\ncolour: always\n").problems()));
    }

    @Test
    void yamlThatDoesNotParseIsASyntaxFinding() throws IOException {
        List<Finding> p = load("include: [\n").problems();
        assertEquals(1, p.size());
        assertEquals("SYN001", p.get(0).ruleId());
        assertEquals("cfg.yaml", p.get(0).span().file());
    }

    @Test
    void aMissingFileIsAFindingNotAnException() {
        Config c = Config.load(dir.resolve("nope.yaml"), "nope.yaml");
        assertEquals(List.of("nope.yaml:1:1 TOOL001 cannot read the configuration 'nope.yaml': no such file."),
                problems(c.problems()));
        assertEquals(List.of(), c.include());
    }

    @Test
    void findTakesTheNearestConfigurationUpwards() throws IOException {
        Path deep = Files.createDirectories(dir.resolve("a/b/c"));
        Path outside = Config.find(deep);
        assertTrue(outside == null || !outside.startsWith(dir.toAbsolutePath().normalize()), "none inside the folder yet");
        Files.writeString(dir.resolve(Config.NAME), "");
        Files.writeString(dir.resolve("a/" + Config.NAME), "");
        assertEquals(dir.resolve("a/" + Config.NAME).toAbsolutePath().normalize(), Config.find(deep));
        assertEquals(dir.resolve(Config.NAME).toAbsolutePath().normalize(), Config.find(dir));
    }
}
