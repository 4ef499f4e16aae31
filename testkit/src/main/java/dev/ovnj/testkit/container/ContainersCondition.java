package dev.ovnj.testkit.container;

import java.util.Optional;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The condition behind {@link EnabledIfContainersRun}; a skip is also logged, since test runners hide reasons. */
final class ContainersCondition implements ExecutionCondition {
    private static final Logger LOG = LoggerFactory.getLogger(ContainersCondition.class);

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        String image = OvsdbContainer.imageOrDefault();
        Optional<String> missing = ContainerPrerequisites.missing(image);
        missing.ifPresent(why -> LOG.warn("{} skipped: {}", context.getDisplayName(), why));
        return missing.map(why -> ConditionEvaluationResult.disabled("skipped: " + why))
                .orElseGet(() -> ConditionEvaluationResult.enabled("a Docker engine answers and " + image + " is present"));
    }
}
