package dev.tokentime.layout;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import dev.tokentime.formats.layoutfixture.CycleBack;
import dev.tokentime.formats.layoutfixture.FamilyThatBorrows;
import dev.tokentime.formats.layoutfixture.ParserThatQueries;
import dev.tokentime.ingest.layoutfixture.ContractThatKnowsAFamily;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;


/**
 * The layout rules of docs/design.md ("Layout and boundaries"), checked on the compiled main
 * classes. A broken rule fails with ArchUnit's list of violations, each naming the class and its
 * source file and line.
 */
class LayoutRulesTest {
  private static JavaClasses main;

  @BeforeAll
  static void importMainClasses() {
    main = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
        .importPackages("dev.tokentime");
  }

  /** Parsers turn bytes into records; storing them is the store's job. */
  static final ArchRule PARSERS_NEVER_TOUCH_THE_DATABASE = noClasses()
      .that().resideInAnyPackage("dev.tokentime.formats..", "dev.tokentime.ingest..")
      .should().dependOnClassesThat().resideInAnyPackage("java.sql..", "org.duckdb..", "org.apache.arrow..")
      .because("parsers never touch JDBC, DuckDB or Arrow (docs/design.md, Layout)");

  /** The parser contract knows no format family: families register themselves (FormatFamily). */
  static final ArchRule CONTRACT_KNOWS_NO_FAMILY = noClasses()
      .that().resideInAPackage("dev.tokentime.ingest..")
      .should().dependOnClassesThat().resideInAPackage("dev.tokentime.formats..")
      .because("format families register themselves as FormatFamily services");

  /**
   * The packages under formats/ that every family may use: the JSON helpers, and the spec engine
   * that runs parsers/*.spec (it also registers the spec-only formats).
   */
  static final String[] SHARED_BY_FAMILIES = {"dev.tokentime.formats.json..", "dev.tokentime.formats.spec.."};

  /** A family is its package plus the shared ones and the contract: no family reaches into another. */
  static final ArchRule FAMILIES_ARE_INDEPENDENT = slices()
      .matching("dev.tokentime.formats.(*)..")
      .should().notDependOnEachOther()
      .ignoreDependency(DescribedPredicate.alwaysTrue(), JavaClass.Predicates.resideInAnyPackage(SHARED_BY_FAMILIES))
      .because("a format family uses only formats.json, formats.spec and ingest (move what two families share there)");

  static final ArchRule NO_PACKAGE_CYCLE = slices()
      .matching("dev.tokentime.(**)")
      .should().beFreeOfCycles()
      .because("packages depend one way (docs/design.md, Layout)");

  @Test
  void parsersNeverTouchTheDatabase() {
    PARSERS_NEVER_TOUCH_THE_DATABASE.check(main);
  }

  @Test
  void theContractKnowsNoFamily() {
    CONTRACT_KNOWS_NO_FAMILY.check(main);
  }

  @Test
  void formatFamiliesAreIndependent() {
    FAMILIES_ARE_INDEPENDENT.check(main);
  }

  @Test
  void noPackageCycle() {
    NO_PACKAGE_CYCLE.check(main);
  }

  /**
   * A sink that passes calls on to another (a format's own step or count keeping) passes every
   * one: a call the interface gives a default for would otherwise end there unsaid (SGLang's near
   * misses never reached the ingest's note).
   */
  @Test
  void aSinkThatPassesCallsOnPassesEveryOne() {
    List<String> dropped = new ArrayList<>();
    for (JavaClass c : main) {
      if (c.isInterface() || !c.isAssignableTo(dev.tokentime.ingest.RecordSink.class)
          || c.getFields().stream().noneMatch(f -> f.getRawType().isAssignableTo(dev.tokentime.ingest.RecordSink.class))) {
        continue;
      }
      for (java.lang.reflect.Method m : dev.tokentime.ingest.RecordSink.class.getMethods()) {
        if (m.isDefault() && c.tryGetMethod(m.getName(), m.getParameterTypes()).isEmpty()) {
          dropped.add(c.getSimpleName() + "." + m.getName());
        }
      }
    }
    assertEquals(List.of(), dropped);
  }

  /** Each rule catches a class that breaks it on purpose, and names its source file. */
  @Test
  void eachRuleFailsWhenBrokenOnPurpose() {
    JavaClasses broken = new ClassFileImporter()
        .importClasses(ParserThatQueries.class, ContractThatKnowsAFamily.class, CycleBack.class,
            FamilyThatBorrows.class, dev.tokentime.formats.peers.PeerFormats.class);
    assertViolationNames(PARSERS_NEVER_TOUCH_THE_DATABASE.evaluate(broken), "ParserThatQueries.java");
    assertViolationNames(CONTRACT_KNOWS_NO_FAMILY.evaluate(broken), "ContractThatKnowsAFamily.java");
    assertViolationNames(NO_PACKAGE_CYCLE.evaluate(broken), "CycleBack.java");
    assertViolationNames(FAMILIES_ARE_INDEPENDENT.evaluate(broken), "FamilyThatBorrows.java");
  }

  private static void assertViolationNames(EvaluationResult result, String file) {
    assertTrue(result.hasViolation(), "the rule let a broken class pass");
    String report = result.getFailureReport().toString();
    assertTrue(report.contains(file), "the violation does not name " + file + ":\n" + report);
  }
}
