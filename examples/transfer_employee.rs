//! An employee moves between companies atomically: companies embed their staff as ids with the name copied in (the
//! "embedded ids plus the fields read most" one-to-many design), each staff array bounded and counted; employees
//! keep their own documents. A transfer and a rename each touch three documents in two collections, so each runs in
//! one transaction: the counters, the staff arrays and the copied names stay in step, or nothing changes.
//!
//! Run it with `cargo run --example transfer_employee`: it starts the embedded test server (or uses `MONGODB_URI`),
//! transfers an employee, renames them, and shows a transfer into a full company failing as a whole.

use odm::bson::oid::ObjectId;
use odm::prelude::*;
use serde::{Deserialize, Serialize};

/// A staff member as a company keeps them: the id, and the name its pages list.
#[derive(Embedded, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(closed)]
struct Staff {
    #[serde(rename = "id")]
    id: ObjectId,
    #[serde(rename = "n")]
    #[odm(max_len = 80)]
    name: String,
}

/// A company with its staff embedded (at most 3 here, to show the bound), counted, and a set: nobody is listed twice,
/// so one staff member leaves by a `pull` of their entry that the counter follows.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(module = "hr", collection = "hr_company", closed, read_concern = "majority", write_concern(w = "majority"))]
struct Company {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "n")]
    #[odm(max_len = 120)]
    name: String,
    #[serde(rename = "st")]
    #[odm(max_items = 3, counter = "staff_count", unique_items)]
    staff: Vec<Staff>,
    #[serde(rename = "sc")]
    staff_count: i32,
}

/// An employee, with the company they work for.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[odm(module = "hr", collection = "hr_employee", closed, read_concern = "majority", write_concern(w = "majority"))]
struct Employee {
    #[serde(rename = "_id")]
    id: ObjectId,
    #[serde(rename = "n")]
    #[odm(max_len = 80)]
    name: String,
    #[serde(rename = "co")]
    company: ObjectId,
}

/// Moves `who` to company `to`, in one transaction: out of the old company's staff, into the new one's, and the
/// employee's own company field.
async fn transfer(db: &odm::mongodb::Database, who: ObjectId, to: ObjectId) -> odm::error::Result<()> {
    odm::Transaction::new(db.client())
        .concerns_of::<Company>()
        .run(|s: Session| {
            let (companies, employees) =
                (Collection::<Company>::new(db).with_session(&s), Collection::<Employee>::new(db).with_session(&s));
            async move {
                let (c, e) = (Company::fields(), Employee::fields());
                let employee = employees.find_one(e.id().eq(who)).await?.expect("the employee exists");
                // The staff array is a counted set: `pull` takes the one entry out and its counter down by one,
                // guarded on the entry being there; `add_to_set` adds it to the other company, guarded on it not
                // being there yet. The entry holds the copied name, kept equal to the employee's by `rename`.
                let entry = Staff { id: who, name: employee.name.clone() };
                let left = Update::new().pull(c.staff(), entry.clone());
                let res = companies.update_one(c.id().eq(employee.company), left).await?;
                assert_eq!(res.modified, 1, "listed by their company, under their name");
                companies.update_one(c.id().eq(to), Update::new().add_to_set(c.staff(), entry)).await?;
                employees.update_one(e.id().eq(who), Update::new().set(e.company(), to)).await?;
                Ok(())
            }
        })
        .await
}

/// Renames `who`, and the copy of the name in their company's staff list, in one transaction.
async fn rename(db: &odm::mongodb::Database, who: ObjectId, name: &str) -> odm::error::Result<()> {
    odm::Transaction::new(db.client())
        .concerns_of::<Employee>()
        .run(|s: Session| {
            let (companies, employees) =
                (Collection::<Company>::new(db).with_session(&s), Collection::<Employee>::new(db).with_session(&s));
            let name = name.to_owned();
            async move {
                let (c, e) = (Company::fields(), Employee::fields());
                let employee = employees.find_one(e.id().eq(who)).await?.expect("the employee exists");
                employees.update_one(e.id().eq(who), Update::new().set(e.name(), name.clone())).await?;
                let copy = c.staff().filtered("m", |m| m.id().eq(who)).name();
                companies.update_one(c.id().eq(employee.company), Update::new().set(copy, name)).await?;
                Ok(())
            }
        })
        .await
}

/// Every company's counter equals its staff, and every employee is listed, under their name, by their company.
async fn check(companies: &Collection<Company>, employees: &Collection<Employee>) -> odm::error::Result<()> {
    let all = companies.find(odm::Filter::everything()).await?;
    for company in &all {
        assert_eq!(company.staff_count as usize, company.staff.len(), "{company:?}");
    }
    for employee in employees.find(odm::Filter::everything()).await? {
        let company = all.iter().find(|c| c.id == employee.company).expect("their company");
        let listed = company.staff.iter().find(|m| m.id == employee.id).expect("listed by their company");
        assert_eq!(listed.name, employee.name, "the copied name is in step");
    }
    Ok(())
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let test_db = odm::testing::database("transfer_employee").await;
    let db: &odm::mongodb::Database = &test_db;
    odm::SchemaSync::new(test_db.client())
        .database(test_db.name())
        .model::<Company>()
        .model::<Employee>()
        .await?
        .require_in_sync()?;
    let (companies, employees) = (Collection::<Company>::new(db), Collection::<Employee>::new(db));

    let (qiandu, wanxiang) = (ObjectId::new(), ObjectId::new());
    let people: Vec<Employee> = ["alun", "vivien", "chen", "li"]
        .iter()
        .enumerate()
        .map(|(i, name)| Employee {
            id: ObjectId::new(),
            name: name.to_string(),
            company: if i < 2 { qiandu } else { wanxiang },
        })
        .collect();
    let staff_of = |company: ObjectId| -> Vec<Staff> {
        people.iter().filter(|p| p.company == company).map(|p| Staff { id: p.id, name: p.name.clone() }).collect()
    };
    for (id, name) in [(qiandu, "千度科技有限公司"), (wanxiang, "万象网络有限公司")] {
        let staff = staff_of(id);
        companies.insert_one(Company { id, name: name.into(), staff_count: staff.len() as i32, staff }).await?;
    }
    employees.insert_many(&people).await?;
    check(&companies, &employees).await?;

    // alun moves from 千度 to 万象: three documents, one transaction.
    let alun = people[0].id;
    transfer(db, alun, wanxiang).await?;
    check(&companies, &employees).await?;
    let (q, w) = (
        companies.find_one(Company::fields().id().eq(qiandu)).await?.expect("千度"),
        companies.find_one(Company::fields().id().eq(wanxiang)).await?.expect("万象"),
    );
    assert_eq!((q.staff_count, w.staff_count), (1, 3));
    println!("transferred alun: 千度 has {}, 万象 has {}", q.staff_count, w.staff_count);

    // A rename reaches the copy in the company's staff list in the same transaction.
    rename(db, alun, "Alun Chen").await?;
    check(&companies, &employees).await?;
    let w = companies.find_one(Company::fields().id().eq(wanxiang)).await?.expect("万象");
    assert!(w.staff.iter().any(|m| m.name == "Alun Chen"));
    println!("renamed alun to Alun Chen, in both collections");

    // 万象 is full (3 of 3): moving vivien there fails at the `add_to_set`, and the whole transfer is undone.
    let vivien = people[1].id;
    let err = transfer(db, vivien, wanxiang).await.expect_err("万象 is full");
    assert_eq!(err.code(), Some(121));
    println!("transfer refused as a whole: {err}");
    check(&companies, &employees).await?;
    let q = companies.find_one(Company::fields().id().eq(qiandu)).await?.expect("千度");
    assert_eq!(q.staff_count, 1, "vivien is still listed by 千度");
    // Ends the client's sessions while the runtime still serves it.
    test_db.close().await;
    Ok(())
}
