package dev.gpulint.ruletest;

import static org.junit.jupiter.api.Assertions.assertNull;

import dev.gpulint.lint.Linter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every case of every rule, as a dynamic test: the files are linted together
 * and the findings of the rule under test must be exactly the expected ones
 * (file, line, column, message, and related locations and level where given).
 * `gpulint test-rules DIR` runs the same check on a team's own rules.
 */
class RuleCasesTest {

    private static final Linter LINTER = new Linter();

    @TestFactory
    Stream<DynamicNode> everyCaseOfEveryRule() throws Exception {
        List<DynamicNode> rules = new ArrayList<>();
        for (Path file : RuleCases.testFiles()) {
            List<DynamicNode> tests = new ArrayList<>();
            for (RuleCases.Case c : RuleCases.load(file)) {
                tests.add(DynamicTest.dynamicTest(c.name(), file.toUri(),
                        () -> assertNull(RuleCases.check(c, LINTER), "findings of " + c.rule() + " in case '" + c.name() + "'")));
            }
            rules.add(DynamicContainer.dynamicContainer(file.getFileName().toString(), tests));
        }
        return rules.stream();
    }
}
