package dev.gpulint.maven;

import dev.gpulint.core.LintResult;
import dev.gpulint.lint.Project;
import dev.gpulint.core.Finding;
import dev.gpulint.core.Level;
import dev.gpulint.report.SarifRenderer;
import dev.gpulint.meta.RuleCatalog;
import java.io.File;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * Lints the project's GPU cluster and training-job manifests, logs the findings
 * in gpulint's text format, writes SARIF, and fails the build when findings at
 * or above {@code failOn} exceed {@code maxAllowedFindings}.
 */
@Mojo(name = "check", defaultPhase = LifecyclePhase.VERIFY, threadSafe = true, requiresProject = true)
public class CheckMojo extends AbstractMojo {

    @Parameter(defaultValue = "${project.basedir}", readonly = true, required = true)
    File basedir;

    /** Skip gpulint. */
    @Parameter(property = "gpulint.skip", defaultValue = "false")
    boolean skip;

    /** Lowest level that fails the build: error, warning, note or never. */
    @Parameter(property = "gpulint.failOn", defaultValue = "error")
    String failOn;

    /** Globs, relative to the project folder, of the files to lint; by default every extension gpulint reads. */
    @Parameter
    List<String> includes = dev.gpulint.read.Readers.includeGlobs();

    /** Globs of files never linted; the build folder and dot-folders are always left out. */
    @Parameter
    List<String> excludes = List.of();

    /** The gpulint configuration; default: .gpulint.yaml in the project folder or above. */
    @Parameter(property = "gpulint.configFile")
    File configFile;

    /** A folder of the team's own rules (ID.drl with ID.yaml beside it), compiled at run time. */
    @Parameter(property = "gpulint.rulesDirectory")
    File rulesDirectory;

    /** Where the SARIF report goes (the .sarif extension matters to upload tools). */
    @Parameter(property = "gpulint.sarifFile", defaultValue = "${project.build.directory}/gpulint.sarif")
    File sarifFile;

    /** How many findings at or above failOn are tolerated before the build fails. */
    @Parameter(property = "gpulint.maxAllowedFindings", defaultValue = "0")
    int maxAllowedFindings;

    /** At most this many findings of one rule in one file are reported; a note counts the rest. */
    @Parameter(property = "gpulint.maxFindingsPerRule", defaultValue = "1000")
    int maxFindingsPerRule = dev.gpulint.settle.FindingCap.DEFAULT_PER_RULE_PER_FILE;

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        if (skip) {
            getLog().info("gpulint: skipped");
            return;
        }
        Level threshold;
        String fo = failOn.trim().toLowerCase(Locale.ROOT);
        if (fo.equals("never")) threshold = null;
        else if (List.of("error", "warning", "note").contains(fo)) threshold = Level.parse(fo);
        else throw new MojoExecutionException("gpulint.failOn must be error, warning, note or never, not '" + failOn + "'");

        Path base = basedir.toPath().toAbsolutePath().normalize();
        if (maxFindingsPerRule < 1) throw new MojoExecutionException("gpulint.maxFindingsPerRule must be at least 1");
        Project project = new Project(base)
                .maxFindingsPerRule(maxFindingsPerRule)
                .config(configFile == null ? null : configFile.toPath())
                .rules(rulesDirectory == null ? null : rulesDirectory.toPath());
        try {
            project.matching(includes, excludes);
        } catch (IOException e) {
            throw new MojoExecutionException("gpulint: cannot scan " + base + ": " + e.getMessage(), e);
        }
        Project.Outcome outcome = project.lint();
        LintResult result = outcome.result();
        RuleCatalog rules = outcome.rules();
        for (Finding f : result.findings()) {
            if (f.suppressed()) continue;
            String line = dev.gpulint.report.TextRenderer.headline(f);
            switch (f.level()) {
                case ERROR -> getLog().error(line);
                case WARNING -> getLog().warn(line);
                case NOTE -> getLog().info(line);
            }
        }
        try {
            Files.createDirectories(sarifFile.toPath().toAbsolutePath().getParent());
            try (Writer w = Files.newBufferedWriter(sarifFile.toPath(), StandardCharsets.UTF_8)) {
                new SarifRenderer(rules, version(), base).render(result, w);
            }
        } catch (IOException e) {
            throw new MojoExecutionException("gpulint: cannot write " + sarifFile + ": " + e.getMessage(), e);
        }
        getLog().info("gpulint: " + dev.gpulint.report.TextRenderer.summary(result) + "; SARIF report: " + sarifFile);
        if (result.inputFailed()) {
            throw new MojoFailureException("gpulint: some input could not be read or parsed (see the SYN001 findings above)");
        }
        if (threshold == null) return;
        long counted = result.countAtOrAbove(threshold);
        if (counted > maxAllowedFindings) {
            throw new MojoFailureException("gpulint found " + counted + " finding" + (counted == 1 ? "" : "s")
                    + " at or above " + fo + (maxAllowedFindings > 0 ? " (at most " + maxAllowedFindings + " allowed)" : "")
                    + "; see the log above or " + sarifFile);
        }
    }

    private static String version() {
        Package p = CheckMojo.class.getPackage();
        return p != null && p.getImplementationVersion() != null ? p.getImplementationVersion() : "0.1.0";
    }
}
