//! Extended references against the real server: copies that went stale (a source renamed with the raw driver, as
//! another program would) are found and repaired, in single references and in arrays of them; a reference whose
//! source is gone is reported and left; an interrupted repair resumes where it stopped; copies brought in step
//! by another writer meanwhile are not written again.

use crate::support;

use odm::bson::{doc, oid::ObjectId, Document};
use odm::reference::{Propagate, Repair, StaleCopy};
use odm::{Collection, Embedded, Model, SchemaSync};
use serde::{Deserialize, Serialize};

#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "hr_employee")]
struct Employee {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "n")]
    #[odm(max_len = 40)]
    name: String,
    #[serde(rename = "e")]
    email: String,
    #[serde(rename = "s")]
    salary: i64,
}

/// A team's view of an employee: the id and the name, so a team page needs no second query.
#[derive(Embedded, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(copies(model = "Employee", by = "id"))]
struct EmployeeRef {
    #[serde(rename = "i")]
    id: ObjectId,
    #[serde(rename = "nm")]
    #[odm(max_len = 80)]
    name: String,
}

#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(collection = "hr_team")]
struct Team {
    #[serde(rename = "_id")]
    #[odm(custom_id)]
    id: i32,
    #[serde(rename = "l")]
    lead: EmployeeRef,
    #[serde(rename = "m")]
    #[odm(max_items = 20, counter = "member_count")]
    members: Vec<EmployeeRef>,
    #[serde(rename = "mc")]
    member_count: i32,
}

fn employee(name: &str) -> Employee {
    Employee { id: ObjectId::new(), name: name.into(), email: format!("{name}@example.com"), salary: 1 }
}

fn copy(e: &Employee) -> EmployeeRef {
    EmployeeRef { id: e.id, name: e.name.clone() }
}

/// Renames an employee as a program outside odm would: the copies are not told.
async fn rename_outside(db: &odm::mongodb::Database, e: &Employee, name: &str) {
    let raw = db.collection::<Document>("hr_employee");
    let r = raw.update_one(doc! { "_id": e.id }, doc! { "$set": { "n": name } }).await.expect("rename");
    assert_eq!(r.modified_count, 1);
}

async fn setup(name: &str) -> (odm::testing::TestDatabase, Collection<Employee>, Collection<Team>) {
    let db = odm::testing::database(name).await;
    SchemaSync::new(db.client())
        .database(db.name())
        .model::<Employee>()
        .model::<Team>()
        .await
        .expect("sync")
        .require_in_sync()
        .expect("in sync");
    let (employees, teams) = (Collection::new(&db), Collection::new(&db));
    (db, employees, teams)
}

#[tokio::test]
async fn stale_copies_are_found_on_the_server_and_repaired() {
    let (db, employees, teams) = setup("ref_repair").await;
    let (ada, bob, cy) = (employee("ada"), employee("bob"), employee("cy"));
    for e in [&ada, &bob, &cy] {
        employees.insert_one(e).await.expect("employee");
    }
    let team = |id: i32, lead: &Employee, members: &[&Employee]| Team {
        id,
        lead: copy(lead),
        members: members.iter().map(|m| copy(m)).collect(),
        member_count: members.len() as i32,
    };
    teams.insert_one(team(1, &ada, &[&bob, &cy])).await.expect("team 1");
    teams.insert_one(team(2, &bob, &[&ada, &bob])).await.expect("team 2");
    teams.insert_one(team(3, &cy, &[])).await.expect("team 3");

    // Nothing is stale yet: nothing is written.
    let f = Team::fields();
    let report = Repair::new(&teams, f.lead()).await.expect("repair");
    assert_eq!((report.examined, report.repaired, report.dangling.len()), (3, 0, 0));

    rename_outside(&db, &bob, "robert").await;
    let leads = Repair::new(&teams, f.lead()).await.expect("repair leads");
    assert_eq!(leads.repaired, 1, "team 2's lead");
    let members = Repair::new(&teams, f.members()).await.expect("repair members");
    assert_eq!(members.repaired, 2, "bob in teams 1 and 2");
    assert!(members.dangling.is_empty() && leads.dangling.is_empty(), "{members:?}");
    let two = teams.find_one(f.id().eq(2)).await.expect("find").expect("team 2");
    assert_eq!(two.lead.name, "robert");
    assert_eq!(two.members.iter().map(|m| m.name.as_str()).collect::<Vec<_>>(), ["ada", "robert"]);
    assert_eq!(two.member_count, 2, "the counter is untouched");
    // Repaired once, stale never again.
    let again = Repair::new(&teams, f.members()).await.expect("again");
    assert_eq!((again.examined, again.repaired), (3, 0));
}

#[tokio::test]
async fn a_dangling_reference_is_reported_and_kept() {
    let (db, employees, teams) = setup("ref_dangling").await;
    let (ada, gone) = (employee("ada"), employee("gone"));
    employees.insert_one(&ada).await.expect("ada");
    teams
        .insert_one(&Team { id: 1, lead: copy(&gone), members: vec![copy(&ada)], member_count: 1 })
        .await
        .expect("team");
    let report = Repair::new(&teams, Team::fields().lead()).await.expect("repair");
    let dangling: Vec<(&odm::bson::Bson, &odm::bson::Bson)> =
        report.dangling.iter().map(|d: &StaleCopy| (&d.holder, &d.source)).collect();
    assert_eq!(dangling, [(&1.into(), &gone.id.into())]);
    assert_eq!(report.repaired, 0);
    let raw = db.collection::<Document>("hr_team");
    assert_eq!(raw.count_documents(doc! { "l.i": gone.id }).await.expect("count"), 1, "kept as it was");
}

#[tokio::test]
async fn an_interrupted_repair_resumes_and_counts_progress() {
    let (db, employees, teams) = setup("ref_resume").await;
    let ada = employee("ada");
    employees.insert_one(&ada).await.expect("ada");
    for id in 0..25 {
        teams.insert_one(&Team { id, lead: copy(&ada), members: vec![], member_count: 0 }).await.expect("team");
    }
    rename_outside(&db, &ada, "adele").await;
    // The first run stops after one batch of ten (as an interrupted run would, its report kept).
    let mut batches = Vec::new();
    let first = Repair::new(&teams, Team::fields().lead())
        .batch_size(10)
        .on_progress(|p| batches.push((p.done, p.repaired)))
        .await
        .expect("first");
    assert_eq!((first.examined, first.repaired), (25, 25));
    assert_eq!(batches, [(10, 10), (20, 20), (25, 25)]);

    // A run interrupted after the holders 0 to 9 (its last progress said so) resumes after 9: only the rest is read.
    rename_outside(&db, &ada, "adeline").await;
    let resumed = Repair::new(&teams, Team::fields().lead()).after(9).await.expect("resumed");
    assert_eq!((resumed.examined, resumed.repaired), (15, 15));
    assert_eq!(resumed.last, Some(24.into()));
    let rest = Repair::new(&teams, Team::fields().lead()).await.expect("from the start");
    assert_eq!((rest.examined, rest.repaired), (25, 10), "the first ten were left for a run from the start");
}

#[tokio::test]
async fn a_copy_brought_in_step_meanwhile_is_not_written_again() {
    let (db, employees, teams) = setup("ref_race").await;
    let ada = employee("ada");
    employees.insert_one(&ada).await.expect("ada");
    teams.insert_one(&Team { id: 1, lead: copy(&ada), members: vec![], member_count: 0 }).await.expect("team");
    rename_outside(&db, &ada, "adele").await;
    // Many repairs at once: the copy is written once, the others find it in step (their guard no longer matches).
    let runs = (0..6).map(|_| async { Repair::new(&teams, Team::fields().lead()).await.expect("repair").repaired });
    let repaired: u64 = futures_util::future::join_all(runs).await.into_iter().sum();
    assert_eq!(repaired, 1);
    let one = teams.find_one(Team::fields().id().eq(1)).await.expect("find").expect("team");
    assert_eq!(one.lead.name, "adele");
}

#[tokio::test]
async fn a_source_written_through_odm_propagates_to_every_copy() {
    let (_db, employees, teams) = setup("ref_propagate").await;
    let (ada, bob) = (employee("ada"), employee("bob"));
    for e in [&ada, &bob] {
        employees.insert_one(e).await.expect("employee");
    }
    teams
        .insert_one(&Team { id: 1, lead: copy(&ada), members: vec![copy(&bob), copy(&ada)], member_count: 2 })
        .await
        .expect("team 1");
    teams.insert_one(&Team { id: 2, lead: copy(&bob), members: vec![copy(&bob)], member_count: 1 }).await.expect("2");

    let renamed = Employee { name: "adele".into(), ..ada.clone() };
    employees.replace_one(Employee::fields().id().eq(renamed.id), &renamed).await.expect("rename");
    let f = Team::fields();
    assert_eq!(Propagate::new(&teams, f.lead(), &renamed).await.expect("leads"), 1);
    assert_eq!(Propagate::new(&teams, f.members(), &renamed).await.expect("members"), 1, "team 1 only");
    let one = teams.find_one(f.id().eq(1)).await.expect("find").expect("team 1");
    assert_eq!(one.lead.name, "adele");
    assert_eq!(one.members.iter().map(|m| m.name.as_str()).collect::<Vec<_>>(), ["bob", "adele"]);
    // Nothing is left stale, and team 2 was not touched.
    for path in [Repair::new(&teams, f.lead()).await, Repair::new(&teams, f.members()).await] {
        assert_eq!(path.expect("repair").repaired, 0);
    }
    assert_eq!(teams.find_one(f.id().eq(2)).await.expect("find").expect("team 2").lead.name, "bob");
}

#[tokio::test]
async fn a_propagation_in_the_source_s_transaction_commits_or_aborts_with_it() {
    let (db, employees, teams) = setup("ref_propagate_tx").await;
    if !support::server::runs_transactions(db.client()).await {
        eprintln!("the server runs no transactions: the propagation's own write is tested without one");
        return;
    }
    let ada = employee("ada");
    employees.insert_one(&ada).await.expect("ada");
    teams.insert_one(&Team { id: 1, lead: copy(&ada), members: vec![], member_count: 0 }).await.expect("team");
    rename_in_transaction(&db, &ada, "adele", true).await.expect_err("aborted");
    let lead = || async { teams.find_one(Team::fields().id().eq(1)).await.expect("find").expect("team").lead.name };
    assert_eq!(lead().await, "ada", "neither the source nor the copy changed");
    rename_in_transaction(&db, &ada, "adele", false).await.expect("committed");
    assert_eq!(lead().await, "adele");
    let stored = employees.find_one(Employee::fields().id().eq(ada.id)).await.expect("find").expect("ada");
    assert_eq!(stored.name, "adele");
}

/// Renames `ada` and propagates the name to the teams' leads in one transaction, aborting it when asked.
async fn rename_in_transaction(
    db: &odm::mongodb::Database,
    ada: &Employee,
    name: &str,
    abort: bool,
) -> odm::error::Result<()> {
    odm::Transaction::new(db.client())
        .run(|s| {
            let (employees, teams) =
                (Collection::<Employee>::new(db).with_session(&s), Collection::<Team>::new(db).with_session(&s));
            let renamed = Employee { name: name.into(), ..ada.clone() };
            async move {
                employees.replace_one(Employee::fields().id().eq(renamed.id), &renamed).await?;
                Propagate::new(&teams, Team::fields().lead(), &renamed).await?;
                if abort {
                    return Err(odm::transaction::abort(std::fmt::Error));
                }
                Ok(())
            }
        })
        .await
}

/// Runs `script` (mongosh syntax, `db` the test database) with mongosh, as a DBA or another program would.
fn mongosh_on(db: &odm::mongodb::Database, script: &str) {
    let (code, out) = support::shell::mongosh(&format!("db = db.getSiblingDB({:?});\n{script}", db.name()));
    assert_eq!(code, 0, "{out}");
}

/// Sets (or unsets) an employee's name around odm, its validator bypassed: `value` in mongosh syntax.
fn write_name_outside(db: &odm::mongodb::Database, e: &Employee, update: &str) {
    let script = format!(
        r#"const r = db.hr_employee.updateOne({{_id: ObjectId("{}")}}, {update}, {{bypassDocumentValidation: true}});
if (r.modifiedCount !== 1) throw new Error("not written: " + JSON.stringify(r));"#,
        e.id
    );
    mongosh_on(db, &script);
}

/// One refused copy, as a test compares it: holder, source, path, and each failure's path and rule.
type Refused<'r> = (i32, ObjectId, &'r str, Vec<(&'r str, &'r str)>);

#[tokio::test]
async fn a_copy_the_validator_refuses_is_reported_and_the_repair_goes_on() {
    let (db, employees, teams) = setup("ref_unfixable").await;
    let people: Vec<Employee> = ["long", "gone", "int", "wide", "late"].iter().map(|n| employee(n)).collect();
    for e in &people {
        employees.insert_one(e).await.expect("employee");
    }
    // Teams 1 to 5 led by each, team 6 with two members: one whose name breaks the copy, one renamed normally.
    for (id, lead) in (1..).zip(&people) {
        teams.insert_one(&Team { id, lead: copy(lead), members: vec![], member_count: 0 }).await.expect("team");
    }
    let members = vec![copy(&people[0]), copy(&people[4])];
    teams.insert_one(&Team { id: 6, lead: copy(&people[4]), members, member_count: 2 }).await.expect("team 6");

    // The hostile sources: a 100-character name where the copy allows 80, no name, an int name; and a 60-character
    // name (over the source's own 40, within the copy's 80) and a plain rename, which the repair must still fix.
    write_name_outside(&db, &people[0], &format!(r#"{{$set: {{n: "{}"}}}}"#, "x".repeat(100)));
    write_name_outside(&db, &people[1], r#"{$unset: {n: ""}}"#);
    write_name_outside(&db, &people[2], r#"{$set: {n: 7}}"#);
    write_name_outside(&db, &people[3], &format!(r#"{{$set: {{n: "{}"}}}}"#, "w".repeat(60)));
    rename_outside(&db, &people[4], "laura").await;

    let f = Team::fields();
    let leads = Repair::new(&teams, f.lead()).batch_size(2).await.expect("the repair goes on");
    assert_eq!((leads.examined, leads.repaired, leads.last.clone()), (6, 3, Some(6.into())), "{leads:?}");
    assert!(leads.dangling.is_empty(), "{leads:?}");
    let refused: Vec<Refused> = leads
        .unfixable
        .iter()
        .map(|u| {
            let why = u.failures.iter().map(|w| (w.path.as_str(), w.rule.as_str())).collect();
            (u.holder.as_i32().unwrap(), u.source.as_object_id().unwrap(), u.path.as_str(), why)
        })
        .collect();
    assert_eq!(
        refused,
        [
            (1, people[0].id, "Team.lead", vec![("Team.lead.name", "maxLength")]),
            (2, people[1].id, "Team.lead", vec![("Team.lead.name", "required")]),
            (3, people[2].id, "Team.lead", vec![("Team.lead.name", "bsonType")]),
        ],
        "{leads:?}"
    );
    let text = leads.unfixable[0].to_string();
    assert!(text.starts_with("`Team.lead` of _id 1 copies _id"), "{text}");
    assert!(text.contains("Team.lead.name: maxLength"), "{text}");
    let lead_of = |id: i32| {
        let teams = teams.clone();
        async move { teams.find_one(Team::fields().id().eq(id)).await.expect("find").expect("team").lead.name }
    };
    assert_eq!([lead_of(1).await, lead_of(2).await, lead_of(3).await], ["long", "gone", "int"], "left as they were");
    assert_eq!(
        [lead_of(4).await, lead_of(5).await, lead_of(6).await],
        ["w".repeat(60), "laura".into(), "laura".into()]
    );

    // In an array of references: the refused member is reported, the other is repaired.
    let members = Repair::new(&teams, f.members()).await.expect("members");
    assert_eq!((members.examined, members.repaired), (6, 1), "{members:?}");
    let refused: Vec<(&odm::bson::Bson, &str)> =
        members.unfixable.iter().map(|u| (&u.holder, u.path.as_str())).collect();
    assert_eq!(refused, [(&6.into(), "Team.members[]")], "{members:?}");
    let six = teams.find_one(f.id().eq(6)).await.expect("find").expect("team 6");
    assert_eq!(six.members.iter().map(|m| m.name.as_str()).collect::<Vec<_>>(), ["long", "laura"]);
}

#[tokio::test]
async fn a_repair_stopped_by_an_error_keeps_its_report_and_resumes() {
    let (db, employees, teams) = setup("ref_stopped").await;
    let people: Vec<Employee> = ["a", "b", "c", "d"].iter().map(|n| employee(n)).collect();
    for e in &people {
        employees.insert_one(e).await.expect("employee");
    }
    for (id, lead) in (1..).zip(&people) {
        teams.insert_one(&Team { id, lead: copy(lead), members: vec![], member_count: 0 }).await.expect("team");
    }
    // A DBA's unique index on the leads' names, then renames around odm: team 2's repair would give it the name
    // team 4's lead holds, which the index refuses (not a validation failure: the repair stops there).
    mongosh_on(&db, r#"db.hr_team.createIndex({"l.nm": 1}, {unique: true, name: "dba_lead_name"});"#);
    rename_outside(&db, &people[0], "a2").await;
    rename_outside(&db, &people[1], "d").await;
    rename_outside(&db, &people[2], "c2").await;
    let err = Repair::new(&teams, Team::fields().lead()).await.expect_err("a duplicate key stops the repair");
    let odm::Error::RepairStopped(stopped) = &err else { panic!("expected RepairStopped, got {err:?}") };
    assert_eq!(err.code(), Some(11000), "{err}");
    assert_eq!(err.model(), Some("Team"), "{err}");
    let report = &stopped.report;
    assert_eq!((report.examined, report.repaired, report.last.clone()), (1, 1, Some(1.into())), "{err}");
    assert!(err.to_string().contains("resume with `Repair::after(1)`"), "{err}");

    // The DBA removes the index; the repair resumes where it stopped and fixes the rest.
    mongosh_on(&db, r#"db.hr_team.dropIndex("dba_lead_name");"#);
    let resumed =
        Repair::new(&teams, Team::fields().lead()).after(report.last.clone().unwrap()).await.expect("resumed");
    assert_eq!((resumed.examined, resumed.repaired, resumed.last), (3, 2, Some(4.into())));
    let mut names: Vec<(i32, String)> =
        teams.find(odm::Filter::everything()).await.expect("find").into_iter().map(|t| (t.id, t.lead.name)).collect();
    names.sort();
    let names: Vec<&str> = names.iter().map(|(_, n)| n.as_str()).collect();
    assert_eq!(names, ["a2", "d", "c2", "d"]);
}
