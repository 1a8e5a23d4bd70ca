use super::parse_output;

#[test]
fn a_pairing_programs_answer_is_read_with_its_bye() {
    assert_eq!(
        parse_output("3\n1 3\n4 2\n5 0\n"),
        Ok((vec![(1, 3), (4, 2)], Some(5)))
    );
    assert_eq!(
        parse_output("2\n2 1\n3 4\n"),
        Ok((vec![(2, 1), (3, 4)], None))
    );
}

#[test]
fn an_answer_not_in_that_form_is_refused_saying_how() {
    assert_eq!(
        parse_output(""),
        Err("its first line is not the number of pairs".into())
    );
    assert_eq!(
        parse_output("2\n1 3\n"),
        Err("it announces 2 pairs and gives 1".into())
    );
    assert_eq!(
        parse_output("2\n1 0\n2 0\n"),
        Err("it gives two byes".into())
    );
    assert_eq!(
        parse_output("1\n1 x\n"),
        Err("line 2 is not two players' numbers".into())
    );
    assert_eq!(
        parse_output("1\n1 2 3\n"),
        Err("line 2 is not two players' numbers".into())
    );
}
