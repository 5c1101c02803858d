package dev.gpulint.cli;

import dev.gpulint.core.DidYouMean;
import dev.gpulint.meta.RuleCatalog;
import dev.gpulint.meta.RuleMeta;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The commands that print the rule catalog: {@code gpulint rules} and {@code gpulint explain ID}. */
public final class CatalogCommands {
    private CatalogCommands() {}

    @Command(name = "rules", mixinStandardHelpOptions = true, description = "Print the rule catalog.")
    static final class Rules implements Callable<Integer> {
        enum RulesFormat { text, json, markdown }

        @Option(names = {"-f", "--format"}, description = "text, json or markdown (default: ${DEFAULT-VALUE})")
        RulesFormat format = RulesFormat.text;

        @CommandLine.Spec CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() throws IOException {
            PrintWriter out = spec.commandLine().getOut();
            List<RuleMeta> all = new ArrayList<>(RuleCatalog.builtIn().all());
            switch (format) {
                case text -> {
                    int width = Wrap.width(Main.env::apply, false);
                    for (RuleMeta r : all) {
                        // a long title continues under the titles
                        out.println(Wrap.hanging(String.format(Locale.ROOT, "%-8s %-8s %-32s %s", r.id(), r.level().id(), r.name(),
                                r.title()), 51, width));
                    }
                }
                case markdown -> out.print(markdownTable(all));
                case json -> {
                    List<Object> list = new ArrayList<>();
                    for (RuleMeta r : all) {
                        Map<String, Object> m = new LinkedHashMap<>();
                        m.put("id", r.id());
                        m.put("name", r.name());
                        m.put("level", r.level().id());
                        m.put("title", r.title());
                        m.put("description", r.description());
                        m.put("remediation", r.remediation());
                        m.put("tags", r.tags());
                        list.add(m);
                    }
                    dev.gpulint.report.JsonOut.write(list, out);
                }
            }
            out.flush();
            return Main.OK;
        }
    }

    /** The README's rules table (a test keeps the README in step with it). */
    public static String markdownTable(List<RuleMeta> all) {
        StringBuilder sb = new StringBuilder("| ID | name | level | what it catches |\n| --- | --- | --- | --- |\n");
        for (RuleMeta r : all) {
            sb.append("| [").append(r.id()).append("](docs/rules/").append(r.id()).append(".md) | ")
              .append(r.name()).append(" | ").append(r.level().id()).append(" | ").append(r.title()).append(" |\n");
        }
        return sb.toString();
    }

    @Command(name = "explain", mixinStandardHelpOptions = true, description = "Print a rule's full help page.")
    static final class Explain implements Callable<Integer> {
        @Parameters(paramLabel = "RULE-ID") String id;

        @CommandLine.Spec CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            RuleCatalog rules = RuleCatalog.builtIn();
            String key = id.toUpperCase(Locale.ROOT);
            RuleMeta meta = rules.get(key).orElse(null);
            if (meta == null) {
                for (RuleMeta r : rules.all()) if (r.name().equalsIgnoreCase(id)) meta = r;
            }
            if (meta == null) {
                List<String> ids = new ArrayList<>();
                for (RuleMeta r : rules.all()) { ids.add(r.id()); ids.add(r.name()); }
                String guess = DidYouMean.closest(id, ids);
                spec.commandLine().getErr().println("gpulint: unknown rule '" + id + "'"
                        + (guess != null ? "; did you mean " + guess + "?" : "") + " (gpulint rules lists them)");
                return Main.BAD_INPUT;
            }
            PrintWriter out = spec.commandLine().getOut();
            out.print(Wrap.text(meta.helpMarkdown() != null ? meta.helpMarkdown()
                    : "# " + meta.id() + " " + meta.name() + "\n\n" + meta.description() + "\n", Wrap.width(Main.env::apply, false)));
            out.flush();
            return Main.OK;
        }
    }
}
