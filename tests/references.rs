//! Extended references against the real server: copies that went stale (a source renamed with the raw driver, as
//! another program would) are found and repaired, in single references and in arrays of them; a reference whose
//! source is gone is reported and left; an interrupted repair resumes where it stopped; copies brought in step
//! by another writer meanwhile are not written again.

mod support;

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
    teams.insert_one(&team(1, &ada, &[&bob, &cy])).await.expect("team 1");
    teams.insert_one(&team(2, &bob, &[&ada, &bob])).await.expect("team 2");
    teams.insert_one(&team(3, &cy, &[])).await.expect("team 3");

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
