package dev.gpulint.cli;

import dev.gpulint.read.Readers;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.UsageMessageSpec;

/**
 * The help text. check is the default command, so the top-level help ({@code gpulint --help},
 * {@code gpulint help}) shows check's parameters and options with the other commands, and both say
 * which files gpulint reads: the extensions come from the Readers registry, the one list there is.
 */
final class Usage {
    private Usage() {}

    /** The extensions gpulint reads, from the Readers registry: ".topo, .yaml, .yml, .json and .csv". */
    static String extensions() {
        List<String> all = Readers.SYNTAXES.stream().flatMap(s -> s.extensions().stream()).toList();
        if (all.size() == 1) return all.get(0);
        return String.join(", ", all.subList(0, all.size() - 1)) + " and " + all.get(all.size() - 1);
    }

    /** picocli lays the help out this wide, and {@link Wrap} wraps it between words at the terminal's width. */
    private static final int UNWRAPPED = 2000;

    static void install(CommandLine top, int width) {
        top.setUsageHelpWidth(UNWRAPPED);   // passed on to the subcommands
        CommandLine check = top.getSubcommands().get("check");
        String reads = "It reads files ending in " + extensions() + "; folders recurse into them, and a file without an "
                + "extension given by name is read as YAML.";
        check.getCommandSpec().usageMessage().description(
                "Lint files and folders (the default command: 'gpulint PATH...' is 'gpulint check PATH...').", reads);
        top.getCommandSpec().usageMessage().description(
                "Lints GPU cluster and training-job manifests, and the configurations of the tools that run them.",
                "Without a command it runs check, whose parameters and options follow.", reads);
        Map<String, CommandLine.IHelpSectionRenderer> sections = new LinkedHashMap<>(top.getHelpSectionMap());
        sections.put(UsageMessageSpec.SECTION_KEY_SYNOPSIS,
                h -> "gpulint [check] [OPTIONS] [PATH...]\n       gpulint COMMAND [ARGS...]   (gpulint help COMMAND for its own help)\n");
        sections.put(UsageMessageSpec.SECTION_KEY_PARAMETER_LIST_HEADING, h -> check.getHelp().parameterListHeading());
        sections.put(UsageMessageSpec.SECTION_KEY_PARAMETER_LIST, h -> check.getHelp().parameterList());
        sections.put(UsageMessageSpec.SECTION_KEY_OPTION_LIST_HEADING, h -> check.getHelp().optionListHeading());
        sections.put(UsageMessageSpec.SECTION_KEY_OPTION_LIST, h -> check.getHelp().optionList());
        top.getCommandSpec().usageMessage().sectionMap(sections);   // this command's help only, not its subcommands'
        top.getCommandSpec().usageMessage().commandListHeading("%nCommands:%n");
        wrapped(top, width);
        for (CommandLine sub : top.getSubcommands().values()) wrapped(sub, width);
    }

    /** Every section of a command's help, wrapped at {@code width} between words. */
    private static void wrapped(CommandLine c, int width) {
        Map<String, CommandLine.IHelpSectionRenderer> sections = new LinkedHashMap<>();
        c.getHelpSectionMap().forEach((key, r) -> sections.put(key, h -> Wrap.text(r.render(h), width)));
        c.getCommandSpec().usageMessage().sectionMap(sections);
    }
}
