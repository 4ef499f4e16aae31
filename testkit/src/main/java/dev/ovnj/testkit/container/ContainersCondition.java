package dev.ovnj.testkit.container;

import java.util.Optional;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/** The condition behind {@link EnabledIfContainersRun}. */
final class ContainersCondition implements ExecutionCondition {

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        String image = OvsdbContainer.imageOrDefault();
        Optional<String> missing = ContainerPrerequisites.missing(image);
        return missing.map(why -> ConditionEvaluationResult.disabled("skipped: " + why))
                .orElseGet(() -> ConditionEvaluationResult.enabled("a Docker engine answers and " + image + " is present"));
    }
}
