package dev.ovnj.examples.build;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Keeps the build's promises to consumers as modules come and go: every module of the root pom is
 * either published (then the BOM lists it and its jar declares a JPMS name) or says in its pom
 * that it is not (maven.deploy.skip).
 */
class PublishedArtifactsTest {
    private static final Path ROOT = Path.of("../..");

    @Test
    void everyModuleIsInTheBomWithAModuleNameOrMarkedUnpublished() throws Exception {
        String root = Files.readString(ROOT.resolve("pom.xml"));
        String bom = Files.readString(ROOT.resolve("bom/pom.xml"));
        List<String> published = new ArrayList<>();
        Matcher modules = Pattern.compile("<module>([^<]+)</module>").matcher(root);
        while (modules.find()) {
            String module = modules.group(1).strip();
            if (module.equals("bom")) {
                continue;
            }
            String pom = Files.readString(ROOT.resolve(module).resolve("pom.xml"));
            String artifactId = artifactId(pom);
            if (pom.contains("<maven.deploy.skip>true</maven.deploy.skip>")) {
                assertThat(bom).as("unpublished %s is not offered by the BOM", artifactId)
                        .doesNotContain("<artifactId>" + artifactId + "</artifactId>");
                continue;
            }
            published.add(artifactId);
            assertThat(bom).as("the BOM lists published module %s", module)
                    .contains("<artifactId>" + artifactId + "</artifactId>");
            assertThat(pom).as("%s declares its JPMS name", module).containsPattern("<ovnj.module.name>dev\\.ovnj\\.[a-z.]+</ovnj.module.name>");
            assertThat(pom).as("%s describes itself", module).contains("<description>");
        }
        assertThat(published).contains("ovsdb-core", "ovn-nb-model", "lb-engine", "testkit", "ovnj-cli", "ovnj-micrometer");
    }

    private static String artifactId(String pom) {
        // The module's own artifactId is the first one after the parent block.
        String afterParent = pom.substring(pom.indexOf("</parent>"));
        Matcher m = Pattern.compile("<artifactId>([^<]+)</artifactId>").matcher(afterParent);
        assertThat(m.find()).isTrue();
        return m.group(1);
    }
}
