package dev.gpulint.maven;

import dev.gpulint.core.LintResult;
import dev.gpulint.app.Checks;
import dev.gpulint.app.Project;
import dev.gpulint.core.Finding;
import dev.gpulint.meta.RuleCatalog;
import java.io.File;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
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

    /** The build folder, whatever its name: its copies of the manifests are never linted. */
    @Parameter(defaultValue = "${project.build.directory}", readonly = true, required = true)
    File buildDirectory;

    /** This project's modules (folders, or POM files, relative to basedir): each lints its own files. */
    @Parameter(defaultValue = "${project.modules}", readonly = true)
    List<String> modules = List.of();

    /** The build's user properties (-D): -Dgpulint.failOn wins over a failOn set in the POM. */
    @Parameter(defaultValue = "${session.userProperties}", readonly = true)
    Properties userProperties;

    /** Skip gpulint. */
    @Parameter(property = "gpulint.skip", defaultValue = "false")
    boolean skip;

    /**
     * Lowest level that fails the build: error, warning, note or never. {@code -Dgpulint.failOn} on the
     * command line wins even over this parameter set in the POM, so that one build can be told not to fail.
     */
    @Parameter(property = "gpulint.failOn", defaultValue = "error")
    String failOn;

    /** Globs, relative to the project folder, of the files to lint; by default every extension gpulint reads. */
    @Parameter
    List<String> includes = dev.gpulint.read.Readers.includeGlobs();

    /**
     * Globs of files never linted; the build folder (whatever its name), the folders of this project's
     * modules (each module lints its own files), dot-folders and node_modules are always left out.
     */
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

    /**
     * SARIF: run.automationDetails.id becomes gpulint/CATEGORY/, so GitHub code scanning keeps each
     * module's alerts apart (as the command line's --sarif-category); by default the module's artifactId.
     */
    @Parameter(property = "gpulint.sarifCategory", defaultValue = "${project.artifactId}")
    String sarifCategory;

    /** SARIF: each rule's helpUri is this URL + ID.md, or the URL with {id} replaced (as --help-uri-base). */
    @Parameter(property = "gpulint.helpUriBase")
    String helpUriBase;

    /** Files larger than this are reported instead of read, e.g. 100MiB (as --max-file-size; default 8 MiB). */
    @Parameter(property = "gpulint.maxFileSize")
    String maxFileSize;

    /** A SARIF file of an earlier run: only findings that are not in it are reported (as --baseline). */
    @Parameter(property = "gpulint.baseline")
    File baseline;

    /**
     * Lets .gpulint.yaml's include read outside the project folder (a path above it, an absolute path, a link
     * out of it), as the command line's --include-outside-project; off by default, so a cloned project's
     * configuration reads nothing outside it.
     */
    @Parameter(property = "gpulint.includeOutsideProject", defaultValue = "false")
    boolean includeOutsideProject;

    /**
     * The build's top-level project. Without a .gpulint.yaml or a git checkout above the module, the project root is
     * the top of the multi-module project the module belongs to (Reactor.top: the aggregator POMs above it that list
     * it), so a module's jobs find their cluster in a sibling module also when only the module is built
     * ({@code mvn -pl jobs verify}, where this top-level project is the module itself); this is the fallback.
     */
    @Parameter(defaultValue = "${session.topLevelProject.basedir}", readonly = true)
    File topLevelBasedir;

    /** The -Dgpulint.* properties this goal reads; any other is named in a warning (a typo is not silent). */
    static final java.util.Set<String> PROPERTIES = java.util.Set.of("gpulint.skip", "gpulint.failOn", "gpulint.configFile",
            "gpulint.rulesDirectory", "gpulint.sarifFile", "gpulint.maxAllowedFindings", "gpulint.maxFindingsPerRule",
            "gpulint.sarifCategory", "gpulint.helpUriBase", "gpulint.maxFileSize", "gpulint.baseline",
            "gpulint.includeOutsideProject");

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        warnUnknownProperties();
        if (skip) {
            getLog().info("gpulint: skipped");
            return;
        }
        String given = userProperties == null ? null : userProperties.getProperty("gpulint.failOn");
        if (given != null && !given.equals(failOn)) {
            getLog().debug("gpulint: -Dgpulint.failOn=" + given + " wins over failOn " + failOn + " of the POM");
            failOn = given;
        }
        Path base = basedir.toPath().toAbsolutePath().normalize();
        // the options are parsed and checked by Project, as the command line's are; problems name them as the POM does
        Project project = new Project(base).naming(CheckMojo::parameterName)
                .failOn(failOn)
                .maxFindingsPerRule(maxFindingsPerRule)
                .sarifCategory(sarifCategory)
                .helpUriBase(helpUriBase)
                .maxFileSize(maxFileSize)
                .top(Reactor.top(base, topLevelBasedir == null ? null : topLevelBasedir.toPath(), getLog()::debug))
                .includeOutside(includeOutsideProject)
                .config(configFile == null ? null : configFile.toPath())
                .rules(rulesDirectory == null ? null : rulesDirectory.toPath());
        if (!project.problems().isEmpty()) {
            throw new MojoExecutionException("gpulint: " + String.join("; ", project.problems()));
        }
        if (baseline != null) {
            try {
                project.baseline(baseline.toPath());
            } catch (IOException e) {
                throw new MojoExecutionException("gpulint: cannot read the baseline " + baseline + ": " + e.getMessage(), e);
            }
        }
        try {
            project.matching(includes, excludes, skipped(base));
        } catch (IOException e) {
            throw new MojoExecutionException("gpulint: cannot scan " + base + ": " + e.getMessage(), e);
        }
        dev.gpulint.app.CheckRequest request = project.request();
        if (request.lint().files().isEmpty() && modules != null && !modules.isEmpty()) {
            // an aggregator whose own folder holds no manifest: an empty SARIF here would only be one more report to
            // upload that says nothing; each module writes its own
            getLog().info("gpulint: nothing to lint in " + base + " outside its modules (each module lints its own files and "
                    + "writes its own report), so no report is written here");
            return;
        }
        // the one entry of every front end: the same run, post-run steps (the layout fixes) included, as the command line's
        dev.gpulint.lint.RunOutcome outcome = Checks.check(request);
        LintResult result = outcome.result();
        RuleCatalog rules = outcome.rules();
        for (Finding f : result.findings()) {
            if (f.suppressed()) continue;
            // absolute paths, as maven-compiler and checkstyle print them: a module's relative path is ambiguous in a reactor log
            Path file = result.paths().absolute(f.span().file());
            String line = dev.gpulint.report.TextRenderer.headline(f, file == null ? f.span().file() : file.toString());
            switch (f.level()) {
                case ERROR -> getLog().error(line);
                case WARNING -> getLog().warn(line);
                case NOTE -> getLog().info(line);
            }
        }
        // as the command line's -o: a report is never written over a file this run read (a manifest, the
        // configuration, the baseline), which would destroy it; the build fails before anything is written
        String over = Checks.overwrites(request, outcome, sarifFile.toPath().toAbsolutePath());
        if (over != null) {
            throw new MojoExecutionException("gpulint: will not write the SARIF report (sarifFile) " + sarifFile + " over an input: "
                    + over + "; nothing was written, name another file");
        }
        try {
            Files.createDirectories(sarifFile.toPath().toAbsolutePath().getParent());
            try (Writer w = Files.newBufferedWriter(sarifFile.toPath(), StandardCharsets.UTF_8)) {
                request.report().sarif(rules).render(result, w);
            }
        } catch (IOException e) {
            throw new MojoExecutionException("gpulint: cannot write " + sarifFile + ": " + e.getMessage(), e);
        }
        getLog().info("gpulint: " + dev.gpulint.report.TextRenderer.summary(result) + "; SARIF report: " + sarifFile);
        if (result.inputFailed()) {
            // whatever failOn says, as the command line exits 2: an unread file was checked by nothing
            throw new MojoFailureException("gpulint: some input could not be read or parsed (see the SYN001 findings above); "
                    + "this fails the build whatever failOn is");
        }
        long counted = request.failOn().count(result);
        if (counted > maxAllowedFindings) {
            throw new MojoFailureException("gpulint found " + counted + " finding" + (counted == 1 ? "" : "s")
                    + " at or above " + request.failOn() + (maxAllowedFindings > 0 ? " (at most " + maxAllowedFindings + " allowed)" : "")
                    + "; see the log above or " + sarifFile);
        }
    }

    /** The build folder and the module folders under basedir: never walked (a module lints itself). */
    private List<Path> skipped(Path base) {
        List<Path> out = new ArrayList<>();
        out.add(buildDirectory.toPath().toAbsolutePath().normalize());
        for (String m : modules == null ? List.<String>of() : modules) {
            Path p = base.resolve(m).normalize();
            if (Files.isRegularFile(p)) p = p.getParent();   // <module>child/pom-other.xml</module>
            if (p != null && p.startsWith(base) && !p.equals(base)) {
                out.add(p);
                getLog().debug("gpulint: module " + m + " lints its own files; " + p + " is left out here");
            }
        }
        return out;
    }

    private void warnUnknownProperties() {
        if (userProperties == null) return;
        for (String key : new java.util.TreeSet<>(userProperties.stringPropertyNames())) {
            if (!key.startsWith("gpulint.") || PROPERTIES.contains(key)) continue;
            String near = dev.gpulint.core.DidYouMean.closest(key, PROPERTIES);
            getLog().warn("gpulint: -D" + key + " is no property of gpulint:check and is ignored"
                    + (near != null ? "; did you mean -D" + near + "?" : "; see mvn gpulint:help -Ddetail"));
        }
    }

    /** A parameter as the POM names it, from the command line's option name: fail-on is failOn. */
    static String parameterName(String option) {
        StringBuilder sb = new StringBuilder();
        boolean up = false;
        for (char c : option.toCharArray()) {
            if (c == '-') up = true;
            else {
                sb.append(up ? Character.toUpperCase(c) : c);
                up = false;
            }
        }
        return switch (sb.toString()) {
            case "config" -> "configFile";
            case "rules" -> "rulesDirectory";
            default -> sb.toString();
        };
    }
}
