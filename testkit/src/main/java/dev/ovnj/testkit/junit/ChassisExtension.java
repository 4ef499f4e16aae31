package dev.ovnj.testkit.junit;

import dev.ovnj.testkit.Chassis;
import dev.ovnj.testkit.TestkitException;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One {@link Chassis} shared by the tests of a class: started before the first, closed after the
 * last, and then checked to have left nothing behind (a leftover namespace, veth, process or file
 * fails the class). The class is skipped, with the reason, where a chassis cannot run (not root,
 * no {@code ip netns}, ovs-vswitchd or ovn-controller not installed); a failing test gets the
 * tail of every daemon's log in its output.
 *
 * <pre>{@code
 * class EipTrafficIT {
 *     @RegisterExtension
 *     static final ChassisExtension DATA_PLANE = new ChassisExtension();
 *
 *     @Test
 *     void answers() {
 *         Chassis chassis = DATA_PLANE.chassis();
 *         ...
 *     }
 * }
 * }</pre>
 */
public final class ChassisExtension implements ExecutionCondition, BeforeAllCallback, AfterAllCallback, TestWatcher {
    private static final Logger LOG = LoggerFactory.getLogger(ChassisExtension.class);
    private static final int LOG_TAIL_LINES = 60;

    private volatile Chassis chassis;

    /** An extension whose chassis starts with the test class. */
    public ChassisExtension() {
    }

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        Optional<String> missing = Chassis.unavailableReason();
        missing.ifPresent(why -> LOG.warn("{} skipped: {}", context.getDisplayName(), why));
        return missing.map(why -> ConditionEvaluationResult.disabled("skipped: no data plane here: " + why))
                .orElseGet(() -> ConditionEvaluationResult.enabled("a chassis can run here"));
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        chassis = Chassis.start();
    }

    /**
     * The class's chassis.
     *
     * @return the running chassis
     * @throws IllegalStateException outside the class's tests
     */
    public Chassis chassis() {
        Chassis c = chassis;
        if (c == null) {
            throw new IllegalStateException("the chassis runs only while the test class does (register with @RegisterExtension on a static field)");
        }
        return c;
    }

    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
        Chassis c = chassis;
        if (c != null) {
            StringBuilder tails = new StringBuilder();
            String section = null;
            List<String> lines = c.logs().lines().toList();
            // Each daemon's log ends its section: keep the last lines of each.
            int start = 0;
            for (int i = 0; i <= lines.size(); i++) {
                if (i == lines.size() || lines.get(i).startsWith("===== ")) {
                    if (section != null) {
                        tails.append(section).append('\n');
                        lines.subList(Math.max(start, i - LOG_TAIL_LINES), i).forEach(l -> tails.append(l).append('\n'));
                    }
                    if (i < lines.size()) {
                        section = lines.get(i);
                        start = i + 1;
                    }
                }
            }
            LOG.error("{} failed; chassis {} daemon logs (last {} lines each):\n{}", context.getDisplayName(), c.name(),
                    LOG_TAIL_LINES, tails);
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        Chassis c = chassis;
        chassis = null;
        if (c == null) {
            return;
        }
        c.close();
        List<String> left = c.leftovers();
        if (!left.isEmpty()) {
            throw new TestkitException("chassis " + c.name() + " left things behind: " + left);
        }
    }
}
